/**
 * LoCoMo loading and scoring for the evidence-retrieval benchmark (task: ../shared/bench/README.md).
 * The data set is read from ../shared (or STRATA_LOCOMO) and never copied into the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
  session: number;
  date?: string;
}
export interface Qa {
  question: string;
  evidence?: string[];
  category: number;
}
export interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: Qa[];
}
export interface Question {
  sample: string;
  question: string;
  category: number;
  evidence: string[];
}

export const LOCOMO_PATH = process.env.STRATA_LOCOMO ?? resolve(import.meta.dirname, '../../../shared/bench/locomo-dev.json');
export const CATEGORIES = ['', 'multi-hop', 'temporal', 'open-domain', 'single-hop'];

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

export interface Locomo {
  path: string;
  samples: Sample[];
  turns: Map<string, Turn[]>;
  questions: Question[];
  /** The conversation's present: a day after its last session (relative dates in questions count from it). */
  now: Map<string, Date>;
}

export function loadLocomo(path = LOCOMO_PATH): Locomo | null {
  if (!existsSync(path)) return null;
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  const turns = new Map<string, Turn[]>();
  const questions: Question[] = [];
  const now = new Map<string, Date>();
  for (const s of samples) {
    const list: Turn[] = [];
    let last = 0;
    for (let n = 1; ; n++) {
      const session = s.conversation[`session_${n}`] as Turn[] | undefined;
      if (!session) break;
      const date = parseSessionDate(String(s.conversation[`session_${n}_date_time`] ?? ''));
      if (date) last = Math.max(last, Date.parse(date));
      for (const t of session) list.push({ ...t, session: n, date });
    }
    turns.set(s.sample_id, list);
    now.set(s.sample_id, new Date(last + 86_400_000));
    const known = new Set(list.map((t) => t.dia_id));
    for (const qa of s.qa) {
      if (qa.category < 1 || qa.category > 4 || !qa.evidence) continue;
      const evidence = repairEvidence(qa.evidence, known);
      if (evidence.length > 0) questions.push({ sample: s.sample_id, question: qa.question, category: qa.category, evidence });
    }
  }
  return { path, samples, turns, questions, now };
}

export const KS = [1, 5, 10, 20] as const;
export interface Score {
  n: number;
  r: Record<number, number>;
  all10: number;
  mrr: number;
}
export const emptyScore = (): Score => ({ n: 0, r: { 1: 0, 5: 0, 10: 0, 20: 0 }, all10: 0, mrr: 0 });

export function scoreOne(ranked: readonly string[], evidence: readonly string[], into: Score): void {
  into.n++;
  for (const k of KS) into.r[k]! += evidence.filter((e) => ranked.slice(0, k).includes(e)).length / evidence.length;
  if (evidence.every((e) => ranked.slice(0, 10).includes(e))) into.all10++;
  const first = ranked.findIndex((id) => evidence.includes(id));
  if (first >= 0) into.mrr += 1 / (first + 1);
}

/** Scores of one run: overall, per category and per half of the conversations (first half vs the rest). */
export class RunScores {
  readonly overall = emptyScore();
  readonly byCategory: Record<number, Score> = {};
  readonly halves: [Score, Score] = [emptyScore(), emptyScore()];
  constructor(private readonly firstHalf: Set<string>) {}
  add(q: Question, ranked: readonly string[]): void {
    scoreOne(ranked, q.evidence, this.overall);
    scoreOne(ranked, q.evidence, (this.byCategory[q.category] ??= emptyScore()));
    scoreOne(ranked, q.evidence, this.halves[this.firstHalf.has(q.sample) ? 0 : 1]);
  }
}

export const mean = (s: Score, k: number) => (s.n ? s.r[k]! / s.n : 0);
export const mrr = (s: Score) => (s.n ? s.mrr / s.n : 0);
