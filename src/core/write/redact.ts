/**
 * Secret redaction applied to text before it is stored (on by default; config `write.redactSecrets`).
 * Also used by the capture layer on transcripts, so it must be cheap and must not mangle prose:
 * every pattern is anchored on a vendor prefix, a structure (PEM, JWT, URL credentials) or an
 * explicit label (`password=`, `api key: ...`). Hashes, UUIDs and ordinary URLs are left alone.
 *
 * A replacement is `[REDACTED:<kind>]`; no pattern matches a replacement, so redaction is idempotent.
 */

export interface Redaction {
  kind: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  /** One entry per kind that was found, in rule order. */
  redactions: Redaction[];
  /** Total number of replacements. */
  count: number;
}

interface Rule {
  /** Fixed, or derived from the match (`password=` vs `token=`). */
  kind: string | ((match: RegExpExecArray) => string);
  pattern: RegExp;
  /** Builds the replacement from the match; return `undefined` to keep the match as it is. */
  replace?: (match: RegExpExecArray, marker: string) => string | undefined;
}

const marker = (kind: string): string => `[REDACTED:${kind}]`;
// Token characters: a secret ends where these stop, so `sk-...abc.` keeps its full stop.
const NOT_TOKEN_BEFORE = '(?<![A-Za-z0-9_\\-])';
const NOT_TOKEN_AFTER = '(?![A-Za-z0-9_\\-])';
const tokenRe = (body: string, flags = 'g'): RegExp => new RegExp(`${NOT_TOKEN_BEFORE}${body}${NOT_TOKEN_AFTER}`, flags);
const hasDigit = (s: string): boolean => /\d/.test(s);
const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);
const ALREADY_REDACTED = /^\[REDACTED:/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Values that name a secret rather than contain one: `$VAR`, `${VAR}`, `<your-key>`, `process.env.X`, `***`. */
function isPlaceholder(value: string): boolean {
  return (
    ALREADY_REDACTED.test(value) ||
    /^(?:\$|%|<|\{|=|>|\*{3,}|x{3,}$|\.{3}|…)/i.test(value) ||
    /^(?:process\.env|os\.environ|env\.|getenv|secrets\.)/i.test(value) ||
    /^[A-Za-z_$][\w.$]*\(/.test(value) || // a call such as getPassword()
    /^(?:null|none|undefined|true|false|empty|redacted|changeme|required|optional|string)$/i.test(value)
  );
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A bearer credential mixes letters and digits; "Bearer authentication" does not. */
function looksLikeToken(value: string): boolean {
  return hasDigit(value) && hasLetter(value);
}

/** Whether a labelled value looks machine-generated rather than like a word. */
function looksRandom(value: string): boolean {
  if (value.length < 16 || UUID.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[_\-+/=.]/].filter((re) => re.test(value)).length;
  return classes >= 2 && hasDigit(value) && entropy(value) >= 3;
}

// Labels of assignments: `password=...`, `DB_PASSWORD: ...`, `"api_key": "..."`, `?token=...`.
// A prefix must end in `_`/`-` so that `max_tokens=100` or `tokenizer: x` do not match.
const LABEL_KINDS: Array<[RegExp, string]> = [
  [/(?:password|passwd|passphrase|pwd)$/i, 'password'],
  [/api[_-]?key$/i, 'api-key'],
  [/secret(?:[_-]?(?:key|access[_-]?key))?$/i, 'secret'],
  [/token$/i, 'token'],
];
const labelKind = (label: string): string => LABEL_KINDS.find(([re]) => re.test(label))?.[1] ?? 'secret';

// Prefix segments are bounded: an unbounded `(?:\w+-)*` rescans to the end of text like `a-a-a-...`
// from every start position (quadratic time).
const ASSIGNMENT_KEY =
  '(?:[A-Za-z0-9]+[_-]){0,4}(?:password|passwd|passphrase|pwd|api[_-]?key|secret(?:[_-]?(?:key|access[_-]?key))?|(?:access[_-]?|auth[_-]?|refresh[_-]?|session[_-]?|id[_-]?|bearer[_-]?)?token)';
const ASSIGNMENT_SEPARATOR = '[ \\t]*(?::=|=>|:|=)[ \\t]*';
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9_])(["']?)(${ASSIGNMENT_KEY})\\1(${ASSIGNMENT_SEPARATOR})` +
    // The value must not be the next assignment (`token: client_secret='x'`), or that one's secret would be skipped.
    `(?!["']?${ASSIGNMENT_KEY}["']?${ASSIGNMENT_SEPARATOR})` +
    '(?:"([^"\\n]{1,512})"|\'([^\'\\n]{1,512})\'|([^\\s"\'`,;&<>)\\]}]{1,512}))',
  'gi',
);

const RULES: Rule[] = [
  {
    // Whole PEM block; an unterminated block is cut after its base64 lines.
    kind: 'private-key',
    pattern:
      /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|(?:(?:\\n|\r?\n)[ \t]*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z-]+: [^\n]*))*)/g,
  },
  { kind: 'anthropic-key', pattern: tokenRe('sk-ant-[A-Za-z0-9_\\-]{20,}') },
  { kind: 'openrouter-key', pattern: tokenRe('sk-or-[A-Za-z0-9_\\-]{20,}') },
  // Project/service keys carry a prefix; legacy keys are 20+ alphanumerics mixing letters and digits.
  { kind: 'openai-key', pattern: tokenRe('sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{20,}') },
  {
    kind: 'openai-key',
    pattern: tokenRe('sk-[A-Za-z0-9]{20,}'),
    replace: (m, r) => (hasDigit(m[0].slice(3)) && hasLetter(m[0].slice(3)) ? r : undefined),
  },
  { kind: 'stripe-key', pattern: tokenRe('(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}') },
  { kind: 'github-token', pattern: tokenRe('(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})') },
  { kind: 'gitlab-token', pattern: tokenRe('glpat-[A-Za-z0-9_\\-]{20,}') },
  { kind: 'huggingface-token', pattern: tokenRe('hf_[A-Za-z0-9]{30,}') },
  { kind: 'npm-token', pattern: tokenRe('npm_[A-Za-z0-9]{36}') },
  { kind: 'aws-access-key', pattern: tokenRe('(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}') },
  {
    kind: 'aws-secret-key',
    pattern: /\b(aws_secret_access_key|aws_secret_key|secret_access_key)(["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9/+=]{30,})/gi,
    replace: (m, r) => `${m[1]}${m[2]}${r}`,
  },
  { kind: 'google-api-key', pattern: tokenRe('AIza[0-9A-Za-z_\\-]{35}') },
  { kind: 'slack-token', pattern: tokenRe('(?:xox[baprs]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,})') },
  { kind: 'slack-webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g },
  { kind: 'jwt', pattern: tokenRe('eyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}') },
  {
    kind: 'basic-auth',
    pattern: /\b(Authorization[ \t]*:[ \t]*Basic[ \t]+)([A-Za-z0-9+/]{8,}={0,2})/gi,
    replace: (m, r) => `${m[1]}${r}`,
  },
  {
    // `Bearer <token>`: the token must look generated, so "bearer of bad news" stays.
    kind: 'bearer-token',
    pattern: /\b(Bearer[ \t]+)([A-Za-z0-9\-._~+/]{16,}=*)/gi,
    replace: (m, r) => (looksLikeToken(m[2] ?? '') ? `${m[1]}${r}` : undefined),
  },
  {
    // scheme://user:password@host -> keep user and host.
    kind: 'url-password',
    // Greedy up to the last `@` of the authority, so a password containing `@` is removed whole.
    pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/?#@[\]]*):(?!\[REDACTED:)([^\s/?#]+)@/gi,
    replace: (m, r) => `${m[1]}${m[2]}:${r}@`,
  },
  {
    kind: (m) => labelKind(m[2] ?? ''),
    pattern: ASSIGNMENT,
    replace: (m, r) => {
      const [, quote = '', key = '', separator = ''] = m;
      const value = m[4] ?? m[5] ?? m[6] ?? '';
      if (isPlaceholder(value)) return undefined;
      // `pwd=/home/me` is a shell variable, not a password.
      if (/^pwd$/i.test(key) && /^[/~]/.test(value)) return undefined;
      // `password: it is on the sticky note` is prose; after a colon a bare value must hold a digit or symbol.
      if (separator.trim() === ':' && m[6] !== undefined && !/[\d\W_]/.test(value.replace(/[.:!?]+$/, ''))) return undefined;
      const q = m[4] !== undefined ? '"' : m[5] !== undefined ? "'" : '';
      return `${quote}${key}${quote}${separator}${q}${r}${q}`;
    },
  },
  {
    // Command-line flags with a separate value: `--password hunter2`, `--api-key abc123`.
    kind: (m) => labelKind(m[1] ?? ''),
    pattern: /(?<![\w-])(--(?:[a-z0-9]+-){0,3}(?:password|passwd|passphrase|api-?key|secret|token))([ \t]+)(?!-|\[REDACTED:)("[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s"'`]{1,512})/gi,
    replace: (m, r) => {
      const value = m[3] ?? '';
      if (isPlaceholder(value.replace(/^["']|["']$/g, ''))) return undefined;
      // "use the --token flag" is prose: an unquoted value must hold a digit or a symbol.
      if (!/^["']/.test(value) && !/[\d\W_]/.test(value.replace(/[.,;:!?)]+$/, ''))) return undefined;
      return `${m[1]}${m[2]}${r}`;
    },
  },
  {
    // Generic high-entropy string, only right after a label: "my API key is 9fK2...", "secret: ...".
    kind: 'labelled-secret',
    pattern:
      /\b((?:api|access|secret|signing|private|encryption|auth|client|master|service)[ _-]?(?:key|secret|token)|secret|token|credential|password|passphrase)(?![A-Za-z0-9_])((?:[ \t]+(?:is|was|=))?[ \t]*[:=]?[ \t]*["'`]?)([A-Za-z0-9+/_\-=.]{16,})/gi,
    replace: (m, r) => (looksRandom(m[3] ?? '') ? `${m[1]}${m[2]}${r}` : undefined),
  },
];

/** Replaces credentials in `text` with `[REDACTED:<kind>]` markers and reports what it replaced. */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<string, number>();
  let out = text;
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(out)) continue; // cheap pre-check: most texts hold no secrets
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      const match = toExecArray(args);
      const kind = typeof rule.kind === 'string' ? rule.kind : rule.kind(match);
      const replacement = rule.replace ? rule.replace(match, marker(kind)) : marker(kind);
      if (replacement === undefined) return match[0];
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      return replacement;
    });
  }
  const redactions = [...counts].map(([kind, count]) => ({ kind, count }));
  return { text: out, redactions, count: redactions.reduce((sum, r) => sum + r.count, 0) };
}

/** Turns `String.prototype.replace` callback arguments back into an exec-style array. */
function toExecArray(args: unknown[]): RegExpExecArray {
  // Arguments: match, ...groups, offset, input[, namedGroups]. Named groups are not used here.
  const offsetIndex = args.findIndex((a, i) => i > 0 && typeof a === 'number');
  const parts = args.slice(0, offsetIndex) as Array<string | undefined>;
  const result = Object.assign([...parts], { index: args[offsetIndex] as number, input: args[offsetIndex + 1] as string });
  return result as unknown as RegExpExecArray;
}

/** Whether `text` contains anything `redactSecrets` would replace. */
export function containsSecrets(text: string): boolean {
  return redactSecrets(text).count > 0;
}
