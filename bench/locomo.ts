/**
 * LoCoMo evidence retrieval through Strata's own recall (task defined in ../shared/bench/README.md):
 * every turn of a conversation is stored as a memory in a per-conversation scope with its session
 * date as validFrom; each category 1-4 question is a query; we score where the evidence turns land.
 * The data set is read from ../shared and never copied into the repository (CC BY-NC 4.0).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Strata } from '../src/strata.js';
import type { RememberInput } from '../src/core/engine/types.js';
import type { RecallConfigInput } from '../src/core/recall/config.js';
import { formatContextBlock } from '../src/core/recall/context-format.js';
import { estimateTokens } from '../src/core/recall/tokens.js';
import { printTable } from './lib/table.js';

interface Turn { speaker: string; dia_id: string; text: string; blip_caption?: string }
interface Qa { question: string; evidence?: string[]; category: number }
interface Sample { sample_id: string; conversation: Record<string, unknown>; qa: Qa[] }

export const LOCOMO_PATH = process.env.STRATA_LOCOMO ?? resolve(import.meta.dirname, '../../shared/bench/locomo-dev.json');

/** "1:56 pm on 8 May, 2023" -> ISO date. */
export function parseSessionDate(value: string): string | undefined {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(value);
  if (!m) return undefined;
  const [, h, min, ampm, day, month, year] = m;
  let hour = Number(h) % 12;
  if (ampm!.toLowerCase() === 'pm') hour += 12;
  const ms = Date.parse(`${day} ${month} ${year} ${String(hour).padStart(2, '0')}:${min}:00 UTC`);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Splits and repairs malformed evidence ids ("D8:6; D9:17", "D:11:26"); unknown ids are dropped. */
export function repairEvidence(evidence: string[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const raw of evidence) {
    for (const part of raw.split(/[;,\s]+/).filter(Boolean)) {
      const fixed = part.replace(/^D:(\d+)/, 'D$1').replace(/^d/, 'D');
      if (known.has(fixed)) out.add(fixed);
    }
  }
  return [...out];
}

export function loadLocomo(): { samples: Sample[]; turns: Map<string, Array<Turn & { date?: string }>> } | null {
  if (!existsSync(LOCOMO_PATH)) return null;
  const samples = JSON.parse(readFileSync(LOCOMO_PATH, 'utf8')) as Sample[];
  const turns = new Map<string, Array<Turn & { date?: string }>>();
  for (const s of samples) {
    const list: Array<Turn & { date?: string }> = [];
    for (let n = 1; ; n++) {
      const session = s.conversation[`session_${n}`] as Turn[] | undefined;
      if (!session) break;
      const date = parseSessionDate(String(s.conversation[`session_${n}_date_time`] ?? ''));
      for (const t of session) list.push({ ...t, date });
    }
    turns.set(s.sample_id, list);
  }
  return { samples, turns };
}

const KS = [1, 5, 10, 20] as const;
interface Score { n: number; r: Record<number, number>; all10: number; mrr: number }
const emptyScore = (): Score => ({ n: 0, r: { 1: 0, 5: 0, 10: 0, 20: 0 }, all10: 0, mrr: 0 });

function scoreOne(ranked: string[], evidence: string[], into: Score): void {
  into.n++;
  for (const k of KS) into.r[k]! += evidence.filter((e) => ranked.slice(0, k).includes(e)).length / evidence.length;
  if (evidence.every((e) => ranked.slice(0, 10).includes(e))) into.all10++;
  const first = ranked.findIndex((id) => evidence.includes(id));
  if (first >= 0) into.mrr += 1 / (first + 1);
}

export const MODES: Record<string, { embedder: 'none' | 'local'; recall: RecallConfigInput }> = {
  lexical: { embedder: 'none', recall: {} },
  dense: { embedder: 'local', recall: { mode: 'vector' } },
  hybrid: { embedder: 'local', recall: {} },
};

export async function runLocomo(options: { modes?: string[]; recallOverrides?: RecallConfigInput; log?: boolean } = {}) {
  const data = loadLocomo();
  if (!data) {
    console.log(`LoCoMo: ${LOCOMO_PATH} not found, skipped`);
    return null;
  }
  const modes = options.modes ?? Object.keys(MODES);
  const results: Record<string, { overall: Score; byCat: Record<number, Score>; contextTokens: number; fullTokens: number }> = {};
  const homes = new Map<string, string>();
  try {
    for (const mode of modes) {
      const spec = MODES[mode]!;
      let home = homes.get(spec.embedder);
      const fresh = !home;
      if (!home) {
        home = await mkdtemp(join(tmpdir(), `strata-locomo-${spec.embedder}-`));
        homes.set(spec.embedder, home);
      }
      const strata = await Strata.open({ home, overrides: { embedder: { provider: spec.embedder }, recall: { ...spec.recall, ...options.recallOverrides } } as never });
      try {
        if (fresh) {
          for (const s of data.samples) {
            const items: RememberInput[] = data.turns.get(s.sample_id)!.map((t) => ({
              text: `${t.speaker}: ${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`,
              scope: `custom:locomo-${s.sample_id}`,
              category: 'event',
              validFrom: t.date,
              source: { kind: 'import', sessionKey: s.sample_id, messageIds: [t.dia_id] },
            }));
            await strata.rememberMany({ items, nearDuplicates: false });
          }
        }
        const overall = emptyScore();
        const byCat: Record<number, Score> = {};
        let contextTokens = 0;
        let fullTokens = 0;
        let questions = 0;
        for (const s of data.samples) {
          const turns = data.turns.get(s.sample_id)!;
          const known = new Set(turns.map((t) => t.dia_id));
          const convTokens = estimateTokens(turns.map((t) => `${t.speaker}: ${t.text}`).join('\n'));
          for (const qa of s.qa) {
            if (qa.category < 1 || qa.category > 4 || !qa.evidence) continue;
            const evidence = repairEvidence(qa.evidence, known);
            if (evidence.length === 0) continue;
            const out = await strata.recall({ query: qa.question, scopes: [`custom:locomo-${s.sample_id}`], limit: 20, rerank: false });
            const ranked = out.results.map((r) => r.record.source.messageIds?.[0] ?? '');
            scoreOne(ranked, evidence, overall);
            scoreOne(ranked, evidence, (byCat[qa.category] ??= emptyScore()));
            contextTokens += estimateTokens(formatContextBlock({ results: out.results.slice(0, 10), maxTokens: 100_000 }));
            fullTokens += convTokens;
            questions++;
          }
        }
        results[mode] = { overall, byCat, contextTokens: contextTokens / questions, fullTokens: fullTokens / questions };
      } finally {
        await strata.close();
      }
    }
  } finally {
    for (const home of homes.values()) await rm(home, { recursive: true, force: true });
  }
  const row = (label: string, s: Score) => [label, s.n, ...KS.map((k) => s.r[k]! / s.n), s.all10 / s.n, s.mrr / s.n];
  for (const mode of modes) {
    const r = results[mode]!;
    printTable(
      `LoCoMo-dev evidence retrieval — ${mode}`,
      ['category', 'questions', 'R@1', 'R@5', 'R@10', 'R@20', 'all@10', 'MRR'],
      [row('overall', r.overall), ...Object.entries(r.byCat).sort().map(([c, s]) => row(`${c} ${['', 'multi-hop', 'temporal', 'open-domain', 'single-hop'][Number(c)]}`, s))],
    );
  }
  printTable(
    'LoCoMo-dev context size (tokens, mean per question)',
    ['mode', 'top-10 block', 'full conversation', 'ratio'],
    modes.map((m) => [m, results[m]!.contextTokens, results[m]!.fullTokens, results[m]!.contextTokens / results[m]!.fullTokens]),
  );
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runLocomo({ modes: process.argv.slice(2).length ? process.argv.slice(2) : undefined });
}
