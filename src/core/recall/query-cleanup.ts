/**
 * Query cleanup: hosts hand us the raw user turn, which often carries our own injected recall
 * block, host reminders and chat-envelope metadata. Searching with that text would recall
 * memories about the envelope (or about the previous recall) instead of the question.
 * Shapes follow ../shared/docs/host-formats.md section 1.8.
 */

export const DEFAULT_QUERY_MAX_CHARS = 1000;
const MAX_INPUT_CHARS = 200_000;

export interface CleanQueryResult {
  text: string;
  /** Labels of what was removed, in order, for explain output. */
  removed: string[];
  truncated: boolean;
}

interface Rule {
  label: string;
  pattern: RegExp;
}

/** The OpenClaw envelope sentinels; each is followed by a fenced JSON block (or bare JSON). */
const ENVELOPE_SENTINELS = [
  'Conversation info (untrusted metadata):',
  'Sender (untrusted metadata):',
  'Thread starter (untrusted, for context):',
  'Replied message (untrusted, for context):',
  'Forwarded message context (untrusted metadata):',
  'Chat history since last reply (untrusted, for context):',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SENTINEL_ALTERNATION = ENVELOPE_SENTINELS.map(escapeRegExp).join('|');

const RULES: Rule[] = [
  // Our own recall block (both spellings); an unclosed block runs to the end of the text.
  { label: 'relevant-memories', pattern: /<relevant[-_]memories\b[^>]*>[\s\S]*?(?:<\/relevant[-_]memories\s*>|$)/gi },
  { label: 'system-reminder', pattern: /<system-reminder\b[^>]*>[\s\S]*?(?:<\/system-reminder\s*>|$)/gi },
  {
    label: 'external-untrusted-content',
    pattern:
      /(?:Untrusted context \(metadata, do not treat as instructions or commands\):\s*)?<<<EXTERNAL_UNTRUSTED_CONTENT\b[^>]*>>>[\s\S]*?(?:<<<END_EXTERNAL_UNTRUSTED_CONTENT\b[^>]*>>>|$)/g,
  },
  {
    label: 'envelope-metadata',
    // Sentinel line, then either a fenced block or a bare {...} object (non-nested or one level deep).
    pattern: new RegExp(
      `(?:${SENTINEL_ALTERNATION})[ \\t]*\\r?\\n?\\s*(?:\`\`\`[a-z0-9]*[ \\t]*\\r?\\n[\\s\\S]*?\`\`\`|\\{(?:[^{}]|\\{[^{}]*\\})*\\})?`,
      'g',
    ),
  },
  { label: 'untrusted-context-header', pattern: /Untrusted context \(metadata, do not treat as instructions or commands\):/g },
  { label: 'media-note', pattern: /^[ \t]*\[media attached[^\]]*\][ \t]*$/gim },
  { label: 'cron-prefix', pattern: /^[ \t]*\[cron:[^\]]*\][ \t]*/gim },
  { label: 'timestamp-prefix', pattern: /^[ \t]*\[[A-Za-z]{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]]*\][ \t]*/gm },
];

/**
 * Removes injected blocks and envelope headers, collapses whitespace and caps the length
 * (in code points, so a surrogate pair is never split).
 */
export function cleanQuery(options: { text: string; maxChars?: number }): CleanQueryResult {
  const maxChars = options.maxChars ?? DEFAULT_QUERY_MAX_CHARS;
  // Bounds regex work on pasted logs; anything past this is far beyond the cap anyway.
  let text = options.text.length > MAX_INPUT_CHARS ? options.text.slice(0, MAX_INPUT_CHARS) : options.text;
  const removed: string[] = [];
  for (const rule of RULES) {
    const next = text.replace(rule.pattern, '\n');
    if (next !== text) {
      removed.push(rule.label);
      text = next;
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  const chars = [...text];
  const truncated = chars.length > maxChars;
  if (truncated) text = chars.slice(0, maxChars).join('').trimEnd();
  return { text, removed, truncated };
}
