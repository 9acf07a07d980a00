import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, StrataError } from '../../errors/index.js';
import { contentHash, countChars, normalizeForHash, normalizeText, validateMemoryText } from './normalize.js';

// Full Unicode plus the characters normalisation cares about, so generated text exercises them often.
const tricky = fc.constantFrom(
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u00A0',
  '\u3000',
  '\u2028',
  '\u0000',
  '\u0007',
  '\u007F',
  '\u200B',
  '\uFEFF',
  'e\u0301',
  '\u0301',
  '.',
  '!',
  '?',
  'İ',
  'ß',
  'Ǆ',
);
const messyText = fc.array(fc.oneof(fc.string({ unit: 'binary' }), tricky), { maxLength: 12 }).map((parts) => parts.join(''));

describe('normalizeText', () => {
  it('applies NFC, unifies newlines, collapses inline whitespace and strips control characters', () => {
    expect(normalizeText('  cafe\u0301\r\nline\t\t two \u0000\u0007end  ')).toBe('café\nline two end');
    expect(normalizeText('a\rb\u2028c')).toBe('a\nb\nc');
    expect(normalizeText('a \u00A0\u3000 b')).toBe('a b');
    expect(normalizeText('\uFEFFzero\u200Bwidth')).toBe('zerowidth');
  });

  it('trims every line and keeps at most one blank line between paragraphs', () => {
    expect(normalizeText('first  \n   second\n\n\n\n third')).toBe('first\nsecond\n\nthird');
  });

  it('keeps tabs only as single spaces and keeps ZWJ emoji sequences intact', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(normalizeText(`a\tb ${family}`)).toBe(`a b ${family}`);
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(messyText, (text) => normalizeText(normalizeText(text)) === normalizeText(text)),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });
});

describe('normalizeForHash / contentHash', () => {
  it('ignores case, whitespace layout and trailing punctuation', () => {
    expect(normalizeForHash('  Likes  GREEN tea.\n')).toBe('likes green tea');
    expect(contentHash('Likes green tea!!!')).toBe(contentHash('likes\n green\ttea'));
    expect(contentHash('likes green tea')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('still distinguishes different content', () => {
    expect(contentHash('likes green tea')).not.toBe(contentHash('likes black tea'));
    expect(contentHash('version 1.2')).not.toBe(contentHash('version 12'));
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(messyText, (text) => normalizeForHash(normalizeForHash(text)) === normalizeForHash(text)),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });

  it('is stable under whitespace and case changes (property)', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzäöüéñ0123456789-'), minLength: 1, maxLength: 8 });
    const space = fc.constantFrom(' ', '  ', '\t', '\n', ' \n ', '\r\n', '\u00A0');
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 10 }),
        fc.array(space, { minLength: 12, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom('', '.', '!', ' ?!'),
        (words, spaces, upper, punct) => {
          const plain = words.join(' ');
          const varied = `${spaces[0]}${words.map((w, i) => (upper === (i % 2 === 0) ? w.toUpperCase() : w)).join(spaces[1])}${punct}${spaces[2]}`;
          return contentHash(varied) === contentHash(plain);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('validateMemoryText', () => {
  const rejects = (text: unknown, options?: { maxChars?: number }): InvalidArgumentError => {
    try {
      validateMemoryText(text, options);
    } catch (error) {
      expect(StrataError.isInstance(error)).toBe(true);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      return error as InvalidArgumentError;
    }
    throw new Error('expected validateMemoryText to throw');
  };

  it('returns the normalised text', () => {
    expect(validateMemoryText('  The user   prefers tea \r\n')).toBe('The user prefers tea');
  });

  it('rejects empty and whitespace/control-only text', () => {
    expect(rejects('').message).toMatch(/empty/);
    expect(rejects(' \n\t\u0000 ').message).toMatch(/empty/);
    expect(rejects('').code).toBe('INVALID_ARGUMENT');
  });

  it('rejects non-strings with the type in the message', () => {
    expect(rejects(42).message).toMatch(/must be a string, got number/);
    expect(rejects(null).message).toMatch(/got null/);
  });

  it('rejects oversized text and names the limit and the setting', () => {
    const error = rejects('x'.repeat(8001));
    expect(error.message).toContain('8,001 characters');
    expect(error.message).toContain('limit is 8,000');
    expect(error.message).toContain('write.maxChars');
    expect(validateMemoryText('x'.repeat(8000))).toHaveLength(8000);
    expect(rejects('abcdef', { maxChars: 5 }).message).toContain('limit is 5');
  });

  it('counts code points, not UTF-16 units, against the limit', () => {
    const emoji = '\u{1F600}'.repeat(10);
    expect(countChars(emoji)).toBe(10);
    expect(validateMemoryText(emoji, { maxChars: 10 })).toBe(emoji);
  });

  it('measures the normalised text, so padding does not count', () => {
    expect(validateMemoryText(`   ${'x'.repeat(10)}   `, { maxChars: 10 })).toBe('x'.repeat(10));
  });

  it('rejects replacement characters and lone surrogates as signs of non-UTF-8 input', () => {
    const garbled = Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('utf8'); // latin-1 "café" read as UTF-8
    expect(rejects(garbled).message).toMatch(/U\+FFFD.*not valid UTF-8/);
    expect(rejects('broken \uD83D emoji').message).toMatch(/lone UTF-16 surrogate at offset 7/);
    expect(rejects('trailing \uDE00').message).toMatch(/lone UTF-16 surrogate/);
  });
});
