/**
 * Token counts for LLM budgets with a real BPE tokenizer (gpt-tokenizer, cl100k_base). cl100k is
 * the conservative choice among the encodings the package ships: it counts slightly more tokens
 * than o200k for English and code, and Anthropic's tokenizer is not published, so a count that errs
 * high keeps chunks inside the model's limits. The encoder costs ~0.4 s and ~40 MB to load, so it
 * is loaded on first need (`loadTokenizer`, awaited by LLM distillation) and never by processes
 * that only capture or recall. Before it is loaded, `countTokens` uses an estimate that errs high.
 */
type Counter = (text: string) => number;

let counter: Counter | undefined;
let loading: Promise<Counter> | undefined;

/** Loads the tokenizer once per process; later calls return the same promise. */
export function loadTokenizer(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => {
    counter = (text: string) => m.countTokens(text);
    return counter;
  });
  return loading;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** An upper-bound estimate: one token per CJK character, one per 3 other characters. */
export function estimateTokensHigh(text: string): number {
  if (text.length === 0) return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil(([...text].length - cjk) / 3);
}

/** Tokens of `text` with the real tokenizer when loaded, else the high estimate. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  return counter ? counter(text) : estimateTokensHigh(text);
}

export function tokenizerLoaded(): boolean {
  return counter !== undefined;
}
