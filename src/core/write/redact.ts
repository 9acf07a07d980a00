/**
 * Secret redaction applied to every string Strata stores (on by default; config `write.redactSecrets`).
 * Three layers, each cheap on text without secrets:
 * 1. Strata's own rules (`redact-rules.ts`): labelled values, credentials in commands and
 *    connection strings, prose ("the wifi password is ..."), PEM blocks, vendor prefixes; and
 *    credentials told apart from their label (`redact-prose.ts`: "the passphrase for key X is `v`");
 * 2. secretlint's maintained recommended preset (`secretlint-rules.ts`) for vendor token formats;
 * 3. arithmetic detectors (`redact-detectors.ts`): unlabelled high-entropy key-like tokens and
 *    Luhn-valid card numbers.
 * Hashes, UUIDs, ULIDs, identifiers and ordinary URLs are left alone.
 *
 * A replacement is `[REDACTED:<kind>]`; no rule matches a replacement, so redaction is idempotent.
 */
import { findCardNumbers, findKeyLikeTokens, type Found } from './redact-detectors.js';
import { PROSE_CREDENTIAL_RULES } from './redact-prose.js';
import { RULES } from './redact-rules.js';
import { secretlintRanges } from './secretlint-rules.js';

export interface Redaction {
  kind: string;
  count: number;
}

export interface RedactionResult {
  text: string;
  /** One entry per kind that was found, in the order first found. */
  redactions: Redaction[];
  /** Total number of replacements. */
  count: number;
}

// Prose rules last: a value an anchored rule already replaced is a marker they leave alone.
const ALL_RULES = [...RULES, ...PROSE_CREDENTIAL_RULES];
const marker = (kind: string): string => `[REDACTED:${kind}]`;
const MARKER = /\[REDACTED:[a-z0-9-]+\]/g;
/** Characters a secret token is made of: a reported range is widened to whole tokens. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_\-.~%]/;
/** Mapping of secretlint rule names to the kind names used by Strata's own rules. */
const SECRETLINT_KIND: Record<string, string> = {
  aws: 'aws-key',
  github: 'github-token',
  gitlab: 'gitlab-token',
  openai: 'openai-key',
  anthropic: 'anthropic-key',
  stripe: 'stripe-key',
  slack: 'slack-token',
  npm: 'npm-token',
  privatekey: 'private-key',
  basicauth: 'url-password',
  'database-connection-string': 'url-password',
  'hashicorp-vault': 'vault-token',
  sendgrid: 'sendgrid-key',
  huggingface: 'huggingface-token',
};

/** Replaces `ranges` of `text` (widened to whole tokens, merged when they overlap) with markers. */
function replaceRanges(text: string, ranges: Found[], counts: Map<string, number>): string {
  if (ranges.length === 0) return text;
  const markers: Array<[number, number]> = [];
  for (const m of text.matchAll(MARKER)) markers.push([m.index, m.index + m[0].length]);
  const insideMarker = (i: number) => markers.some(([s, e]) => i >= s && i < e);
  const sorted = ranges
    .map((r) => {
      let { start, end } = r;
      while (start > 0 && TOKEN_CHAR.test(text[start - 1]!) && !insideMarker(start - 1)) start--;
      while (end < text.length && TOKEN_CHAR.test(text[end]!) && !insideMarker(end)) end++;
      return { ...r, start, end };
    })
    // A range touching a marker found a secret that an earlier rule already replaced.
    .filter((r) => !markers.some(([s, e]) => r.start < e && r.end > s))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    if (r.start < at) {
      at = Math.max(at, r.end); // overlaps the previous range: already replaced
      continue;
    }
    out += text.slice(at, r.start) + marker(r.kind);
    counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
    at = r.end;
  }
  return out + text.slice(at);
}

/** Turns `String.prototype.replace` callback arguments back into an exec-style array. */
function toExecArray(args: unknown[]): RegExpExecArray {
  // Arguments: match, ...groups, offset, input[, namedGroups]. Named groups are not used here.
  const offsetIndex = args.findIndex((a, i) => i > 0 && typeof a === 'number');
  const parts = args.slice(0, offsetIndex) as Array<string | undefined>;
  const result = Object.assign([...parts], { index: args[offsetIndex] as number, input: args[offsetIndex + 1] as string });
  return result as unknown as RegExpExecArray;
}

/** Replaces credentials in `text` with `[REDACTED:<kind>]` markers and reports what it replaced. */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<string, number>();
  let out = text;
  if (text.length >= 6) {
    for (const rule of ALL_RULES) {
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
    const vendor = secretlintRanges(out).map((r) => ({ ...r, kind: SECRETLINT_KIND[r.kind] ?? `${r.kind}-token` }));
    out = replaceRanges(out, vendor, counts);
    out = replaceRanges(out, [...findKeyLikeTokens(out), ...findCardNumbers(out)], counts);
  }
  const redactions = [...counts].map(([kind, count]) => ({ kind, count }));
  return { text: out, redactions, count: redactions.reduce((sum, r) => sum + r.count, 0) };
}

/** Whether `text` contains anything `redactSecrets` would replace. */
export function containsSecrets(text: string): boolean {
  return redactSecrets(text).count > 0;
}
