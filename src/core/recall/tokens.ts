/**
 * Cheap text measures shared by the recall stages: a token estimate for prompt budgets and a
 * word tokeniser for overlap checks. Neither needs a model; both must be stable across runs.
 */

/** Han, Hiragana, Katakana, Hangul: scripts where one character is roughly one model token. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_GLOBAL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

export function containsCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * Estimated model tokens: ~1 per CJK character, ~4 characters per token for everything else.
 * Deliberately errs high (ceil) so a budget computed from it is rarely exceeded.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const cjk = text.match(CJK_GLOBAL)?.length ?? 0;
  const rest = [...text].length - cjk;
  return cjk + Math.ceil(rest / 4);
}

/**
 * Lower-cased word tokens; every CJK character is its own token (no word segmentation needed
 * for overlap measures, and it keeps Chinese text comparable without a dictionary).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text
    .toLowerCase()
    .normalize('NFKC')
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (!containsCjk(word)) {
      out.push(word);
      continue;
    }
    let buffer = '';
    for (const char of word) {
      if (CJK_CHAR.test(char)) {
        if (buffer) out.push(buffer);
        buffer = '';
        out.push(char);
      } else {
        buffer += char;
      }
    }
    if (buffer) out.push(buffer);
  }
  return out;
}
