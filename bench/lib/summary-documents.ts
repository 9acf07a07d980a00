import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { captureByRules } from '../../src/core/distill/rules.js';
import { tokenize } from '../../src/core/recall/tokens.js';

export interface LabelledUnit {
  text: string;
  label: string;
  transcript: string;
}

export interface DocumentYield<U extends { text: string; label: string } = LabelledUnit> {
  /** Memories offline capture made from the whole documents. */
  memories: number;
  /** Distinct labelled units the memories came from, by label. */
  keep: number;
  junk: number;
  /** Memories matching no unit well enough to say which it came from. */
  unmatched: number;
  /** Each memory with the unit it came from (for reading the dev set). */
  pairs: Array<{ memory: string; unit?: U }>;
}

/** A memory's words mostly found in one unit: the unit it was made from (normalising rewrites a few words). */
function sourceUnit<U extends { text: string }>(memory: string, units: readonly U[]): U | undefined {
  const words = new Set(tokenize(memory).filter((w) => !['the', 'user', 'they', 'their', 'them', 'a', 'is'].includes(w)));
  let best: { unit: U; share: number } | undefined;
  for (const unit of units) {
    const theirs = new Set(tokenize(unit.text));
    const share = [...words].filter((w) => theirs.has(w)).length / Math.max(1, words.size);
    if (!best || share > best.share) best = { unit, share };
  }
  return best && best.share >= 0.6 ? best.unit : undefined;
}

/**
 * Offline capture over whole documents (a summary, an assistant message) as the product reads them,
 * each memory matched back to the labelled unit of its document it came from, and the distinct
 * units counted by label.
 */
export function captureYield<U extends { text: string; label: string }>(
  documents: Iterable<{ text: string; units: readonly U[] }>,
  role: 'summary' | 'assistant',
): DocumentYield<U> {
  const out: DocumentYield<U> = { memories: 0, keep: 0, junk: 0, unmatched: 0, pairs: [] };
  const seen = new Set<U>();
  for (const { text, units } of documents)
    for (const c of captureByRules({ text, role })) {
      out.memories++;
      const unit = sourceUnit(c.text, units);
      out.pairs.push({ memory: c.text, ...(unit ? { unit } : {}) });
      if (!unit) out.unmatched++;
      else if (!seen.has(unit)) {
        seen.add(unit);
        if (unit.label === 'keep') out.keep++;
        else out.junk++;
      }
    }
  return out;
}

/**
 * Offline capture over whole summaries, as the product reads them (sections seen, in-flight
 * sections skipped, quoted user words judged as the user's), scored against the units' labels.
 */
export function summaryDocumentYield(options: { dir: string; prefix: string; units: readonly LabelledUnit[] }): DocumentYield {
  if (!existsSync(options.dir)) return { memories: 0, keep: 0, junk: 0, unmatched: 0, pairs: [] };
  const files = readdirSync(options.dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const documents = files.map((file) => ({
    text: readFileSync(join(options.dir, file), 'utf8'),
    units: options.units.filter((u) => u.transcript === `${options.prefix}-${file.replace(/\.md$/, '')}`),
  }));
  return captureYield(documents, 'summary');
}
