/**
 * Detectors that need arithmetic rather than a pattern: unlabelled key-like tokens by entropy, and
 * payment card numbers by the Luhn checksum. Both are tuned against false positives on what agent
 * transcripts are full of: git SHAs and other hex hashes, UUIDs, ULIDs, base64 integrity hashes,
 * camelCase identifiers, file paths, timestamps and phone numbers.
 */
import { entropy } from './redact-rules.js';

export interface Found {
  start: number;
  end: number;
  kind: string;
}

// A maximal run of base64/base62 characters. Dots, colons and brackets end a token, so file names,
// versions, URLs' hosts and markers are never one token with their neighbours.
const TOKEN = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,200}={0,2}(?![A-Za-z0-9+/=_-])/g;
/** Object ids of LLM and payment APIs (tool calls, messages, requests): identifiers, not credentials. */
const ID_PREFIX =
  /^(?:[a-z]+_)?(?:srvtoolu|toolu|call|msg|req|resp|chatcmpl|run|thread|asst|file|fc|rs|ws|evt|sess|cus|ch|pi|in|sub|prod|price|cs|seti|pm|txn|ord|item|step|batch|job)[_-]/;
/** A canonical UUID: an identifier (Claude Code session ids, request ids), never a credential by itself. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const HASH_PREFIX = /(?:sha(?:1|224|256|384|512)-|sha(?:1|256|512)[:=]|md5[:=]|integrity["': ]+|[?&](?:v|hash|rev)=)$/i;

/** Changes between lower case, upper case and digits per character: about 0.5 for random base62, under 0.25 for identifiers. */
function classChanges(s: string): number {
  let changes = 0;
  let prev = -1;
  let counted = 0;
  for (const ch of s) {
    const cls = ch >= 'a' && ch <= 'z' ? 0 : ch >= 'A' && ch <= 'Z' ? 1 : ch >= '0' && ch <= '9' ? 2 : -1;
    if (cls < 0) continue;
    counted++;
    if (prev >= 0 && cls !== prev) changes++;
    prev = cls;
  }
  return counted === 0 ? 0 : changes / counted;
}

// A placeholder says so in one case ("…EXAMPLE", "test_…", "Fake"); a random key spells "fAkE" or "teST" by chance.
const PLACEHOLDER_WORD = /example|test|fake|dummy|sample|EXAMPLE|TEST|FAKE|DUMMY|SAMPLE|Example|Test|Fake|Dummy|Sample/;

/** Whether an unlabelled token looks like a generated credential. */
export function looksLikeKey(token: string): boolean {
  const body = token.replace(/=+$/, '');
  // Longer runs are data (signatures, encrypted blobs, images), not keys; labelled long tokens have their own rules.
  if (body.length < 24 || body.length > 100) return false;
  // Session keys and transcript paths join a project slug and a session UUID into one token; the
  // UUID's hex alternation alone would look random. Judge what is around it instead.
  if (UUID.test(body)) return body.split(UUID).some((piece) => looksLikeKey(piece));
  if (ID_PREFIX.test(body) || /^sha(?:1|224|256|384|512)-/.test(body) || PLACEHOLDER_WORD.test(body)) return false;
  // A path is key-like only through a segment that is key-like by itself. A leading dash marks a
  // path flattened into a slug (Claude Code's project directories: /home/a/MyApp2 -> -home-a-MyApp2).
  const segments = body.split(body.startsWith('-') ? /[/-]/ : '/').filter(Boolean);
  if (segments.length > 1 && segments.filter((s) => /^[A-Za-z]{3,}$/.test(s)).length >= 1)
    return segments.some((s) => s.length >= 24 && looksLikeKey(s));
  // camelCase / PascalCase identifiers with version numbers: NonpagedSystemMemorySize64, AppleHIDKeyboardEventDriverV2.
  if (/^(?:[A-Z]?[a-z]{3,}|[A-Z]+|\d+|[_-])+$/.test(body)) return false;
  // Needs all three classes: hex hashes (no upper case), ULIDs and base32 (no lower case) and words (no digits) are out.
  if (!/[a-z]/.test(body) || !/[A-Z]/.test(body) || !/\d/.test(body)) return false;
  // Paths and slugs: split into parts, a path of words is not a key.
  const parts = body.split(/[/_-]+/).filter(Boolean);
  if (parts.length > 1 && parts.every((p) => p.length < 16 && !(/\d/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p)))) return false;
  return entropy(body) >= 4.0 && classChanges(body) >= 0.3;
}

/** Key-like tokens with no label and no known prefix. */
export function findKeyLikeTokens(text: string): Found[] {
  const out: Found[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    if (HASH_PREFIX.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
    if (looksLikeKey(m[0])) out.push({ start: m.index, end: m.index + m[0].length, kind: 'high-entropy' });
  }
  return out;
}

// 13-19 digits, optionally in groups separated by single spaces or dashes; not part of a longer number.
const CARD = /(?<![\w.,:/-])(?:\d[ -]?){12,18}\d(?![\w-]|[.,:/]\d)/g;
const CARD_GROUPS = new Set(['4-4-4-4', '4-4-4-4-3', '4-4-4-4-2', '4-4-4-4-1', '4-6-5', '4-6-4', '4-4-4-1', '4-4-4-3', '4-4-5']);

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro). */
const ISSUER = /^(?:4|5[1-5]|2[2-7]|3[47]|3[0689]|6|5[06-9])/;

/** Payment card numbers: issuer prefix, plausible length, consistent grouping, Luhn checksum. */
export function findCardNumbers(text: string): Found[] {
  const out: Found[] = [];
  CARD.lastIndex = 0;
  for (let m = CARD.exec(text); m; m = CARD.exec(text)) {
    const raw = m[0];
    const digits = raw.replace(/[ -]/g, '');
    if (digits.length < 13 || digits.length > 19 || !ISSUER.test(digits)) continue;
    // One separator kind only, in the groupings cards are printed with (4-4-4-4[-3], Amex 4-6-5, Diners 4-6-4).
    const separators = new Set(raw.replace(/\d/g, ''));
    if (separators.size > 1) continue;
    if (
      separators.size === 1 &&
      !CARD_GROUPS.has(
        raw
          .split(/[ -]/)
          .map((p) => p.length)
          .join('-'),
      )
    )
      continue;
    if (/^(\d)\1+$/.test(digits) || !luhnValid(digits)) continue;
    out.push({ start: m.index, end: m.index + raw.length, kind: 'card-number' });
  }
  return out;
}
