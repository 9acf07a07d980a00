import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../../errors/index.js';

/** Default cap on a memory's length, in characters (code points). Config: `write.maxChars`. */
export const DEFAULT_MAX_CHARS = 8000;

// C0 controls except \t and \n, DEL, C1 controls, and invisible format characters that only ever
// arrive by accident (BOM, zero-width space, soft hyphen, word joiner). ZWJ/ZWNJ are kept: emoji and
// several scripts need them.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u200B\u2060\uFEFF]/g;
// Any whitespace except the newline, which keeps its meaning (lists, paragraphs).
const INLINE_SPACE_RUN = /[^\S\n]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Normalises text for storage: strips control characters, unifies line breaks, NFC, collapses runs
 * of inline whitespace to one space, trims every line and the whole text, and keeps at most one
 * blank line between paragraphs. Idempotent.
 */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(CONTROL_CHARS, '')
    .normalize('NFC')
    .replace(INLINE_SPACE_RUN, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The form used for exact-duplicate detection: storage normalisation, then lower case, every
 * whitespace run (newlines too) as one space, and no trailing punctuation, so "Likes tea." and
 * "likes  tea" hash alike. Idempotent.
 */
export function normalizeForHash(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .normalize('NFC') // lower-casing can produce decomposed sequences (e.g. U+0130)
    .replace(/\s+/g, ' ')
    .replace(/[\s\p{P}]+$/u, '')
    .trim();
}

/** sha256 (hex) of `normalizeForHash(text)`: the record's `contentHash`. */
export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeForHash(text), 'utf8').digest('hex');
}

export interface ValidateMemoryTextOptions {
  /** Largest accepted length in characters after normalisation. Default 8,000. */
  maxChars?: number;
  /** Argument name used in errors. Default `text`. */
  argument?: string;
}

/**
 * Rejects text that cannot become a memory: not a string, empty after normalisation, longer than
 * `maxChars`, or containing U+FFFD / lone surrogates (the marks of input decoded from non-UTF-8
 * bytes, which would otherwise be stored as garbage). Returns the normalised text.
 */
export function validateMemoryText(text: unknown, options: ValidateMemoryTextOptions = {}): string {
  const argument = options.argument ?? 'text';
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (typeof text !== 'string') {
    throw new InvalidArgumentError({
      argument,
      message: `Memory ${argument} must be a string, got ${text === null ? 'null' : typeof text}.`,
    });
  }
  const replacementAt = text.indexOf('\uFFFD');
  if (replacementAt >= 0) {
    throw new InvalidArgumentError({
      argument,
      message:
        `Memory ${argument} contains the Unicode replacement character U+FFFD at offset ${replacementAt}: the input was probably ` +
        `not valid UTF-8 when it was decoded. Re-read it as UTF-8 (e.g. convert the file with iconv) and try again.`,
    });
  }
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) {
    throw new InvalidArgumentError({
      argument,
      message:
        `Memory ${argument} contains a lone UTF-16 surrogate at offset ${surrogate.index}: the string is not well-formed ` +
        `Unicode (often a truncated emoji or text decoded with the wrong encoding). Fix the input and try again.`,
    });
  }
  const normalized = normalizeText(text);
  if (normalized.length === 0) {
    throw new InvalidArgumentError({
      argument,
      message: `Memory ${argument} is empty (or only whitespace/control characters); give some text to remember.`,
    });
  }
  const length = countChars(normalized);
  if (length > maxChars) {
    throw new InvalidArgumentError({
      argument,
      message:
        `Memory ${argument} is ${length.toLocaleString('en-US')} characters; the limit is ${maxChars.toLocaleString('en-US')} ` +
        `(write.maxChars). Split it into smaller, self-contained memories or raise write.maxChars in config.json.`,
    });
  }
  return normalized;
}

/** Length in code points, so an emoji or a CJK character counts as one. */
export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
