/**
 * `strata completion bash|zsh|fish`: a completion script generated from the command tree itself,
 * so every command, alias, subcommand and option completes without a list kept by hand.
 */
import type { Command, Option } from 'commander';
import { InvalidArgumentError as CommanderArgError } from 'commander';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Node {
  names: string[];
  description: string;
  options: string[];
  children: Node[];
}

function flagsOf(options: readonly Option[]): string[] {
  return options.flatMap((o) => [o.long, o.short].filter((f): f is string => typeof f === 'string'));
}

function tree(cmd: Command): Node {
  return {
    names: [cmd.name(), ...cmd.aliases()],
    description: cmd.description().split('\n')[0] ?? '',
    options: flagsOf(cmd.options),
    children: cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map(tree),
  };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(root: Node, globalFlags: string[]): string {
  // One case arm per command path (`cmd` or `cmd sub`): the words that may follow it.
  const arms: string[] = [];
  const walk = (node: Node, path: string[]) => {
    for (const name of node.names) {
      const key = [...path, name].join(' ');
      const words = [...node.children.flatMap((c) => c.names), ...node.options, ...globalFlags];
      arms.push(`    ${quote(key)}) words=${quote(words.join(' '))} ;;`);
      for (const child of node.children) walk(child, [...path, name]);
    }
  };
  for (const child of root.children) walk(child, []);
  const top = [...root.children.flatMap((c) => c.names), ...globalFlags].join(' ');
  return `# strata bash completion: eval "$(strata completion bash)" (e.g. in ~/.bashrc)
_strata_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i words
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
${arms.map((a) => a.replace(/\) words=.*/, ') path="${path:+$path }$w" ;;')).join('\n')}
    esac
  done
  case "$path" in
${arms.join('\n')}
    *) words=${quote(top)} ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _strata_complete strata strata-memory
`;
}

function zsh(root: Node, globalFlags: string[]): string {
  return `#compdef strata strata-memory
# strata zsh completion: strata completion zsh > "\${fpath[1]}/_strata" (or eval "$(strata completion zsh)")
autoload -U +X bashcompinit && bashcompinit
${bash(root, globalFlags).replace(/^# .*\n/, '')}`;
}

function fish(root: Node, globalFlags: string[]): string {
  const lines = ['# strata fish completion: strata completion fish > ~/.config/fish/completions/strata.fish', 'complete -c strata -f'];
  for (const flag of globalFlags.filter((f) => f.startsWith('--'))) lines.push(`complete -c strata -l ${flag.slice(2)}`);
  for (const node of root.children) {
    for (const name of node.names)
      lines.push(`complete -c strata -n __fish_use_subcommand -a ${quote(name)} -d ${quote(node.description.slice(0, 80))}`);
    const seen = `__fish_seen_subcommand_from ${node.names.join(' ')}`;
    for (const child of node.children) {
      for (const name of child.names)
        lines.push(`complete -c strata -n ${quote(seen)} -a ${quote(name)} -d ${quote(child.description.slice(0, 80))}`);
    }
    for (const flag of node.options.filter((f) => f.startsWith('--')))
      lines.push(`complete -c strata -n ${quote(seen)} -l ${flag.slice(2)}`);
  }
  lines.push('complete -c strata-memory -w strata');
  return lines.join('\n') + '\n';
}

export function completionScript(program: Command, shell: Shell): string {
  const root = tree(program);
  const globalFlags = [...flagsOf(program.options), '--help'];
  return shell === 'bash' ? bash(root, globalFlags) : shell === 'zsh' ? zsh(root, globalFlags) : fish(root, globalFlags);
}

export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: eval "$(strata completion bash)"; zsh and fish too')
    .argument('<shell>', SHELLS.join(' | '), (value: string) => {
      if (!(SHELLS as readonly string[]).includes(value)) throw new CommanderArgError(`must be one of ${SHELLS.join(', ')}.`);
      return value as Shell;
    })
    .action((shell: Shell) => {
      process.stdout.write(completionScript(program, shell));
    });
}
