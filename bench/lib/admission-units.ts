/**
 * The units of the real-transcript admission set: sentences (and headings) of user messages,
 * assistant messages and compaction summaries, as `splitUnits` cuts them. Code blocks and tables
 * are left out (rule capture never offers them). Sampling is deterministic: every summary unit, every
 * user unit (at most 20 per message, evenly spaced, so one pasted log does not fill the set), and per
 * transcript 50 evenly spaced assistant units plus up to 15 that carry a lesson or rule word (keep
 * items are rare in assistant prose; the `sample` field says which way a unit was picked).
 * Run `npx tsx bench/lib/admission-units.ts > units.jsonl` to regenerate the unlabelled units.
 */
import { fileURLToPath } from 'node:url';
import { splitUnits } from '../../src/core/distill/sentences.js';
import { availableTranscripts, readRealTranscript, type RealTranscript } from './real-transcripts.js';

export type UnitSource = 'user' | 'assistant' | 'summary';

export interface AdmissionUnit {
  transcript: string;
  line: number;
  source: UnitSource;
  text: string;
  sample: 'all' | 'spaced' | 'marker';
}

const PER_MESSAGE = 20;
const ASSISTANT_SPACED = 50;
const ASSISTANT_MARKED = 15;
const MARKER =
  /\b(?:root cause|turned out|turns out|the fix (?:is|was)|lesson|always|never|must|should|convention|prefer|rule|decided|decision)\b/i;

function spaced<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

export function unitsOf(t: RealTranscript): AdmissionUnit[] {
  const out: AdmissionUnit[] = [];
  const assistant: AdmissionUnit[] = [];
  for (const m of readRealTranscript(t)) {
    const units = splitUnits(m.content).filter((u) => u.kind === 'prose' || u.kind === 'heading');
    const source = m.role as UnitSource;
    if (source === 'assistant') {
      for (const u of units) assistant.push({ transcript: t.id, line: m.line, source, text: u.text, sample: 'spaced' });
      continue;
    }
    if (source !== 'user' && source !== 'summary') continue;
    const picked = source === 'summary' ? units : spaced(units, PER_MESSAGE);
    for (const u of picked)
      out.push({ transcript: t.id, line: m.line, source, text: u.text, sample: picked.length === units.length ? 'all' : 'spaced' });
  }
  const chosen = spaced(assistant, ASSISTANT_SPACED);
  const chosenSet = new Set(chosen);
  const marked = spaced(
    assistant.filter((u) => !chosenSet.has(u) && MARKER.test(u.text)),
    ASSISTANT_MARKED,
  ).map((u) => ({ ...u, sample: 'marker' as const }));
  // Same text twice in one transcript (a repeated heading) is one unit.
  const seen = new Set<string>();
  return [...out, ...chosen, ...marked].filter((u) => {
    const key = `${u.source}\u0000${u.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const t of availableTranscripts()) for (const u of unitsOf(t)) console.log(JSON.stringify(u));
}
