/**
 * Removal of injected context and wrappers from message text. Each rule is counted so ingest can
 * report what it stripped. Rules run in order; later rules see the output of earlier ones.
 */
export type StripKind =
  | 'relevant-memories'
  | 'strata-injected'
  | 'system-reminder'
  | 'envelope'
  | 'untrusted-content'
  | 'timestamp-prefix'
  | 'media-note'
  | 'data-uri'
  | 'host-wrapper'
  | 'ide-context'
  | 'terminal-escape'
  | 'code-block';

interface Rule {
  kind: StripKind;
  pattern: RegExp;
  replacement: string;
  /** Cheap substring test: skip the regex when absent (most messages contain none of these). */
  probe: string | RegExp;
}

/** Tags Strata wraps its own recall in (any attributes), plus configurable extras. */
export const DEFAULT_INJECTED_TAGS = ['strata-memory', 'strata-memories', 'strata-context', 'agent-memory'];

const ENVELOPE_SENTINELS = [
  'Conversation info \\(untrusted metadata\\):',
  'Sender \\(untrusted metadata\\):',
  'Thread starter \\(untrusted, for context\\):',
  'Replied message \\(untrusted, for context\\):',
  'Forwarded message context \\(untrusted metadata\\):',
  'Chat history since last reply \\(untrusted, for context\\):',
];

function tagRule(kind: StripKind, tags: string[]): Rule {
  const names = tags.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  // An unclosed block (a truncated transcript) is stripped to the end rather than leaked.
  return {
    kind,
    pattern: new RegExp(`<(${names})(?:\\s[^>]*)?>[\\s\\S]*?(?:</\\1\\s*>|$)`, 'gi'),
    replacement: '',
    probe: new RegExp(`<(?:${names})`, 'i'),
  };
}

export function buildRules(options: { injectedTags?: string[]; stripCodeBlocks?: boolean }): Rule[] {
  const rules: Rule[] = [
    {
      kind: 'timestamp-prefix',
      pattern: /^(?:\[[A-Za-z]{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]\n]*\] *)+/gm,
      replacement: '',
      probe: /^\[[A-Za-z]{3} \d/m,
    },
    tagRule('relevant-memories', ['relevant-memories', 'relevant_memories']),
    tagRule('strata-injected', [...DEFAULT_INJECTED_TAGS, ...(options.injectedTags ?? [])]),
    tagRule('system-reminder', ['system-reminder']),
    {
      // Claude Code follows a background task's notification with where to read its output; the
      // line is the host's, like the block before it.
      kind: 'host-wrapper',
      pattern:
        /<task-notification>[\s\S]*?<\/task-notification>[ \t]*\n?(?:[ \t]*Read the output file to retrieve the result:[^\n]*(?:\n|$))?/g,
      replacement: '',
      probe: '<task-notification>',
    },
    tagRule('host-wrapper', ['task-notification', 'local-command-stdout', 'local-command-stderr', 'local-command-caveat']),
    {
      // Colours and cursor moves in pasted terminal output (ESC [ ... letter; OSC ... BEL / ESC \).
      kind: 'terminal-escape',
      // eslint-disable-next-line no-control-regex -- matching the escape character is the point
      pattern: /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][0-9A-Za-z]/g,
      replacement: '',
      probe: '\u001b',
    },
    {
      kind: 'envelope',
      pattern: new RegExp(
        `^[ \\t]*(?:${ENVELOPE_SENTINELS.join('|')})[ \\t]*\\n(?:[ \\t]*\`\`\`json[ \\t]*\\n[\\s\\S]*?\\n[ \\t]*\`\`\`[ \\t]*(?:\\n|$))?`,
        'gm',
      ),
      replacement: '',
      probe: /\((?:untrusted metadata|untrusted, for context)\):/,
    },
    {
      kind: 'untrusted-content',
      pattern:
        /(?:^[ \t]*Untrusted context \(metadata, do not treat as instructions or commands\):[ \t]*\n\s*)?<<<EXTERNAL_UNTRUSTED_CONTENT\b[^>]*>>>[\s\S]*?(?:<<<END_EXTERNAL_UNTRUSTED_CONTENT\b[^>]*>>>|(?![\s\S]))/gm,
      replacement: '',
      probe: '<<<EXTERNAL_UNTRUSTED_CONTENT',
    },
    {
      kind: 'untrusted-content',
      pattern: /^[ \t]*Untrusted context \(metadata, do not treat as instructions or commands\):[ \t]*$/gm,
      replacement: '',
      probe: 'Untrusted context (metadata',
    },
    {
      // Codex's IDE extensions prefix each request with the editor's state (open tabs, active file,
      // selection); the user typed only what follows the request heading.
      kind: 'ide-context',
      pattern: /^[ \t]*#[ \t]*Context from my IDE setup:[ \t]*\n[\s\S]*?^[ \t]*##[ \t]*My request for Codex:[ \t]*(?:\n|$)/m,
      replacement: '',
      probe: 'Context from my IDE setup:',
    },
    { kind: 'media-note', pattern: /\[media attached[^\]\n]*\]/gi, replacement: '', probe: /\[media attached/i },
    { kind: 'data-uri', pattern: /data:[a-z]+\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/=\s]{16,}/gi, replacement: '[image]', probe: ';base64,' },
  ];
  if (options.stripCodeBlocks) {
    rules.push({ kind: 'code-block', pattern: /```[^\n]*\n[\s\S]*?(?:```|$)/g, replacement: '[code]', probe: '```' });
  }
  return rules;
}

export interface StripResult {
  text: string;
  stripped: Partial<Record<StripKind, number>>;
}

export function applyRules(text: string, rules: readonly Rule[], only?: (kind: StripKind) => boolean): StripResult {
  const stripped: Partial<Record<StripKind, number>> = {};
  let out = text;
  // Removing one wrapper can expose another at a line start: repeat until nothing changes.
  for (let pass = 0; pass < 4; pass += 1) {
    const before = out;
    for (const rule of rules) {
      if (only && !only(rule.kind)) continue;
      if (typeof rule.probe === 'string' ? !out.includes(rule.probe) : !rule.probe.test(out)) continue;
      let n = 0;
      out = out.replace(rule.pattern, () => {
        n += 1;
        return rule.replacement;
      });
      if (n > 0) stripped[rule.kind] = (stripped[rule.kind] ?? 0) + n;
    }
    if (out === before) break;
    out = out.replace(/\n{3,}/g, '\n\n').trim();
  }
  return { text: out, stripped };
}
