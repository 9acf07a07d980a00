/**
 * How Claude Code starts Strata, chosen from how Strata itself was installed. Commands must
 * survive `npm update` (no versioned or absolute paths into node_modules) and npx cache cleanup
 * (nothing inside `_npx`), and hooks must start fast (they run on every prompt):
 *
 * | Strata runs from            | hooks and user MCP entry                               |
 * |-----------------------------|--------------------------------------------------------|
 * | a global install            | `strata-memory` (on PATH) or `<prefix>/bin/strata-memory` |
 * | the project's node_modules  | `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/strata-memory` (project scope), else `npx -y strata-memory@<version>` |
 * | the npx cache               | `npx -y strata-memory@<version>` (slow: install globally) |
 * | a source checkout           | `<node> <checkout>/bin/strata.js` (development)        |
 *
 * A project's `.mcp.json` is committed, so its entry is the same on every machine:
 * `npx -y strata-memory mcp --agent <id>`, which runs the project's own dev dependency or a
 * global install (verified with the real Claude Code in test/e2e/claude-code).
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join, sep } from 'node:path';

export const BIN_NAME = 'strata-memory';

export type LaunchKind = 'global' | 'project' | 'npx' | 'checkout';

/** A command line as argv: the first element is the program. */
export type Argv = string[];

export interface LaunchPlan {
  kind: LaunchKind;
  /** Prefix of every hook command (shell words; `$CLAUDE_PROJECT_DIR` stays unexpanded). */
  hook: Argv;
  /** Prefix of the MCP server command for machine-local config (`~/.claude.json`). */
  mcp: Argv;
  /** Said to the user after installing (e.g. why hooks will be slow). */
  notes: string[];
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The `strata-memory` that PATH resolves to, if it is executable. */
function onPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, BIN_NAME);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function detectLaunchKind(packageRoot: string): LaunchKind {
  const root = realpathOr(packageRoot);
  if (root.split(sep).includes('_npx')) return 'npx';
  if (basename(dirname(root)) === 'node_modules') {
    // <prefix>/lib/node_modules/<pkg> is npm's global layout (POSIX).
    return basename(dirname(dirname(root))) === 'lib' && existsSync(join(dirname(dirname(dirname(root))), 'bin', BIN_NAME))
      ? 'global'
      : 'project';
  }
  return 'checkout';
}

export function planLaunch(options: {
  packageRoot: string;
  version: string;
  scope: 'user' | 'project';
  projectDir: string;
  env: NodeJS.ProcessEnv;
  execPath: string;
}): LaunchPlan {
  const root = realpathOr(options.packageRoot);
  const kind = detectLaunchKind(root);
  const npx: Argv = ['npx', '-y', `${BIN_NAME}@${options.version}`];
  switch (kind) {
    case 'global': {
      const bin = join(dirname(dirname(dirname(root))), 'bin', BIN_NAME);
      const found = onPath(options.env);
      const argv = found && realpathOr(found) === realpathOr(bin) ? [BIN_NAME] : [bin];
      return { kind, hook: argv, mcp: argv, notes: [] };
    }
    case 'project': {
      const projectRoot = dirname(dirname(root));
      if (options.scope === 'project' && realpathOr(options.projectDir) === projectRoot) {
        const argv = [`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/${BIN_NAME}`];
        return { kind, hook: argv, mcp: ['npx', '-y', BIN_NAME], notes: [] };
      }
      return {
        kind,
        hook: npx,
        mcp: npx,
        notes: [
          `Strata runs from ${projectRoot}/node_modules, which this install must not depend on: hooks start it through npx, which adds ~0.5 s per hook. For every project, install it globally: npm install -g ${BIN_NAME}.`,
        ],
      };
    }
    case 'npx':
      return {
        kind,
        hook: npx,
        mcp: npx,
        notes: [
          `Strata runs from the npx cache, which npm may clean at any time: hooks start it through npx, which adds ~0.5 s per hook. For fast hooks, install it: npm install -g ${BIN_NAME}.`,
        ],
      };
    case 'checkout':
      return {
        kind,
        hook: [options.execPath, join(root, 'bin', 'strata.js')],
        mcp: [options.execPath, join(root, 'bin', 'strata.js')],
        notes: [],
      };
  }
}

/** Shell-quotes one word; `"$CLAUDE_PROJECT_DIR"/…` is kept as written (expanded by the hook's shell). */
export function shellWord(arg: string): string {
  if (arg.startsWith('"$CLAUDE_PROJECT_DIR"')) return arg;
  return /^[A-Za-z0-9_/.,:=@+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
