/**
 * The durable items that `../shared/fixtures/transcripts-dev/README.md` lists per transcript ("what
 * a good memory system should learn"), with the transcript lines each item cites. Used by
 * `npm run bench -- rules` as a recall proxy: an item counts as touched when a memory was distilled
 * from a message at one of its cited lines (±1, because Codex writes each message twice on adjacent
 * lines). Touched is not learned: the memory may state another thing said in that message, so the
 * memories are printed for reading. Negative tests, noise and format items are not counted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_FIXTURES, type RealTranscript } from './real-transcripts.js';

export interface ReadmeItem {
  transcript: string;
  number: number;
  kind: string;
  lines: number[];
  text: string;
}

/** Which README heading describes which transcript of real-transcripts.ts. */
const HEADING_OF: Record<string, (heading: string) => boolean> = {
  'cc-windows': (h) => h.includes('c76e5be5'),
  'cc-navuser': (h) => h.includes('2d984148'),
  'codex-teams': (h) => h.includes('01997e76'),
  'pi-theme': (h) => h.includes('d703a1a9'),
  'cc-mac': (h) => h.includes('3af9b1a7'),
  'cc-web': (h) => h.includes('21e3c711') && !h.includes('subagents'),
  'cc-web-explore': (h) => h.includes('agent-abadced'),
  'codex-prisma': (h) => h.includes('01998190'),
  'openclaw-charbi': (h) => h.includes('ae2d7334'),
};

const NOT_DURABLE = /^(negative test|noise|format test)/i;
const ITEM = /^(\d+)\.\s+\*\*([^*]+?)\s*(?:\(([^)]*)\))?:\*\*\s*(.*)$/;

/** Cited lines of an item's heading: "L7", "L50, L141", "L363–L390" (a range), "L128 → L218". */
export function citedLines(citation: string): number[] {
  const out = new Set<number>();
  for (const m of citation.matchAll(/L(\d+)(?:\s*[–-]\s*L(\d+))?/g)) {
    const from = Number(m[1]);
    const to = m[2] ? Number(m[2]) : from;
    for (let l = from; l <= Math.min(to, from + 200); l++) out.add(l);
  }
  return [...out];
}

export function readmeItems(): ReadmeItem[] {
  const path = join(SHARED_FIXTURES, 'transcripts-dev', 'README.md');
  if (!existsSync(path)) return [];
  const items: ReadmeItem[] = [];
  let transcript: string | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('## ')) transcript = undefined;
    if (line.startsWith('### ')) transcript = Object.keys(HEADING_OF).find((id) => HEADING_OF[id]!(line));
    const m = transcript ? ITEM.exec(line) : null;
    if (!m || !transcript) continue;
    const kind = m[2]!.trim();
    if (NOT_DURABLE.test(kind)) continue;
    items.push({ transcript, number: Number(m[1]), kind, lines: citedLines(m[3] ?? ''), text: m[4]!.trim() });
  }
  return items;
}

/** The items of one transcript touched by memories distilled from the given source lines. */
export function touchedItems(items: readonly ReadmeItem[], t: RealTranscript, memoryLines: readonly number[]): ReadmeItem[] {
  return items.filter((i) => i.transcript === t.id).filter((i) => i.lines.some((l) => memoryLines.some((m) => Math.abs(m - l) <= 1)));
}
