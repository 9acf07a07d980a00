/**
 * Admission benchmark. Primary: the labelled real-transcript set `bench/data/admission-real.jsonl`
 * (sentences of user messages, assistant messages and compaction summaries from the transcripts in
 * ../shared/fixtures, plus LLM-style third-person memories in English and Chinese; see
 * bench/data/README.md). It is split by transcript: the rules were tuned on the `tune` part only,
 * and the `heldout` part is reported as the honest estimate. Targets (held-out): junk admitted
 * <= 5 %, keep rejected <= 10 %.
 *
 * Two views per source: the gate alone (every unit offered to `admit`, as an LLM's output is), and
 * the offline path (rule-based capture picks and normalises candidates, then the gate). The held-out
 * sentences were labelled twice more, blind (bench/lib/admission-agreement.ts): kappa between the
 * labellings, and each labelling scored against the others as if it were a gate. Secondary:
 * the older synthetic set (short written sentences). Run: `npm run bench -- admission`, or
 * `npx tsx bench/admission.ts [--misses]` (`--misses` lists errors on the tune part only).
 * `--cv` prints the leave-one-transcript-out view of the tune part (bench/lib/admission-cv.ts) and a
 * learned baseline fitted per fold (bench/lib/admission-learned.ts);
 * `--misses --except=<transcript>` lists tune errors outside the fold being estimated. Error
 * breakdowns are printed for the tune part only: held-out rows are an estimate, never a guide.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { admit, type AdmissionSource } from '../src/core/distill/admission.js';
import { captureByRules } from '../src/core/distill/rules.js';
import { hasCjk } from '../src/core/distill/signals.js';
import { printLabelAgreement } from './lib/admission-agreement.js';
import { printCrossValidation, printMisses } from './lib/admission-cv.js';
import { printLearnedBaseline } from './lib/admission-learned.js';
import { printWrittenUserSets } from './lib/admission-written-user.js';
import { printWrittenAssistantSets } from './lib/admission-written-assistant.js';
import { printGroundedSets } from './lib/admission-grounded.js';
import { printRealGrounded } from './lib/admission-real-grounded.js';
import { printRealExtractor } from './lib/admission-real-extractor.js';
import { printWrittenSummarySets } from './lib/admission-written-summary.js';
import { printJunkModelCost } from './lib/junk-model-cost.js';
import { printJunkModelCrossValidation } from './lib/junk-model-cv.js';
import { printProseModelCrossValidation } from './lib/prose-model-cv.js';
import { printTable } from './lib/table.js';

export interface RealRow {
  text: string;
  label: 'keep' | 'junk';
  reason: string;
  source: 'user' | 'assistant' | 'summary' | 'llm';
  transcript: string;
  split: 'tune' | 'heldout';
  line: number | null;
}

interface Scored extends RealRow {
  admitted: boolean;
  why?: string;
  detail?: string;
}

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');

export function loadJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function loadRealSet(): RealRow[] {
  return loadJsonl<RealRow>(join(DATA_DIR, 'admission-real.jsonl'));
}

export interface Rates {
  n: number;
  keep: number;
  junk: number;
  precision: number;
  recall: number;
  junkAdmitted: number;
  keepRejected: number;
}

export function rates(rows: Array<{ label: 'keep' | 'junk'; admitted: boolean }>): Rates {
  const tp = rows.filter((r) => r.label === 'keep' && r.admitted).length;
  const fp = rows.filter((r) => r.label === 'junk' && r.admitted).length;
  const keep = rows.filter((r) => r.label === 'keep').length;
  const junk = rows.length - keep;
  return {
    n: rows.length,
    keep,
    junk,
    precision: tp + fp === 0 ? 0 : tp / (tp + fp),
    recall: keep === 0 ? 0 : tp / keep,
    junkAdmitted: junk === 0 ? 0 : fp / junk,
    keepRejected: keep === 0 ? 0 : (keep - tp) / keep,
  };
}

/** The gate alone: what `admit` says about each unit, told where it comes from. */
export function scoreGate(rows: RealRow[]): Scored[] {
  return rows.map((r) => {
    const d = admit({ text: r.text, source: r.source as AdmissionSource });
    return { ...r, admitted: d.admitted, why: d.reason, detail: d.detail };
  });
}

/**
 * The offline path: rule-based capture over the unit (user sentences and summaries; assistant
 * sentences only as explicit lessons), so a unit counts as admitted when the rules make a memory
 * of it. LLM output does not go through the rules.
 */
export function scoreRules(rows: RealRow[]): Scored[] {
  return rows
    .filter((r) => r.source !== 'llm')
    .map((r) => {
      const found = captureByRules({ text: r.text, role: r.source as Exclude<RealRow['source'], 'llm'>, maxPerTurn: 3 });
      return { ...r, admitted: found.length > 0, why: found[0]?.text };
    });
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const SOURCES = ['user', 'assistant', 'summary', 'llm'] as const;

function rateRows(scored: Scored[], split: 'tune' | 'heldout', sources: readonly string[]) {
  const part = scored.filter((r) => r.split === split);
  const rows = sources.map((s) => [s, part.filter((r) => r.source === s)] as const);
  rows.push(['all', part.filter((r) => sources.includes(r.source))] as never);
  return rows.map(([name, rs]) => {
    const m = rates(rs);
    return [name, m.n, m.keep, m.junk, m.precision, m.recall, pct(m.junkAdmitted), pct(m.keepRejected)];
  });
}

const HEADERS = ['source', 'n', 'keep', 'junk', 'precision', 'recall', 'junk admitted', 'keep rejected'];

export function runAdmissionBench(options: { misses?: boolean; cv?: boolean; except?: string } = {}): void {
  const real = loadRealSet();
  const gate = scoreGate(real);
  if (options.cv) {
    printCrossValidation(gate);
    printLearnedBaseline(gate);
    printJunkModelCrossValidation();
    printProseModelCrossValidation();
    if (options.misses) printMisses(gate, options.except);
    return;
  }
  const rules = scoreRules(real);
  for (const split of ['heldout', 'tune'] as const) {
    printTable(
      `Gate alone, ${split} part of the real-transcript set (targets: junk admitted <= 5 %, keep rejected <= 10 %)`,
      HEADERS,
      rateRows(gate, split, SOURCES),
    );
  }
  printLabelAgreement(
    gate.filter((r) => r.split === 'heldout'),
    DATA_DIR,
  );
  for (const split of ['heldout', 'tune'] as const) {
    printTable(
      `Offline path (rules + gate), ${split} part: a unit counts as admitted when the rules make a memory of it`,
      HEADERS,
      rateRows(rules, split, ['user', 'assistant', 'summary']),
    );
  }
  // Language view of the LLM-style memories (the only Chinese in the set).
  const llm = gate.filter((r) => r.source === 'llm' && r.split === 'heldout');
  printTable(
    'Gate alone on LLM-style memories (held-out) by language',
    HEADERS,
    [
      ['en', ...Object.values(rates(llm.filter((r) => !hasCjk(r.text))))],
      ['zh', ...Object.values(rates(llm.filter((r) => hasCjk(r.text))))],
    ].map(([name, n, keep, junk, p, r, ja, kr]) => [
      name as string,
      n as number,
      keep as number,
      junk as number,
      p as number,
      r as number,
      pct(ja as number),
      pct(kr as number),
    ]),
  );

  printRealGrounded({ dataDir: DATA_DIR, real });
  printRealExtractor({ dataDir: DATA_DIR });

  printWrittenSets();

  // Which kinds of junk get through the gate, and why keepers are rejected: tune part only.
  const held = gate.filter((r) => r.split === 'tune');
  const kinds = new Map<string, { total: number; admitted: number }>();
  for (const r of held.filter((x) => x.label === 'junk')) {
    const k = kinds.get(r.reason) ?? { total: 0, admitted: 0 };
    k.total++;
    if (r.admitted) k.admitted++;
    kinds.set(r.reason, k);
  }
  printTable(
    'Tune junk by labelled kind: admitted by the gate',
    ['kind', 'total', 'admitted'],
    [...kinds].sort((a, b) => b[1].total - a[1].total).map(([k, c]) => [k, c.total, c.admitted]),
  );
  const whys = new Map<string, number>();
  for (const r of held.filter((x) => x.label === 'keep' && !x.admitted)) {
    const key = `${r.source}\t${r.reason}\t${r.why ?? '?'}`;
    whys.set(key, (whys.get(key) ?? 0) + 1);
  }
  printTable(
    'Tune keep items rejected, by source, labelled kind and gate reason',
    ['source', 'kind', 'gate reason', 'count'],
    [...whys].sort((a, b) => a[0].localeCompare(b[0])).map(([k, c]) => [...k.split('\t'), c]),
  );

  runSyntheticTable();

  if (options.misses) printMisses(gate, options.except);
}

/** `--cv`, `--misses`, `--except=<transcript>` from the command line. */
export function admissionFlags(argv: string[]): { misses: boolean; cv: boolean; except?: string } {
  const except = argv.find((a) => a.startsWith('--except='))?.slice('--except='.length);
  return { misses: argv.includes('--misses'), cv: argv.includes('--cv'), ...(except ? { except } : {}) };
}

// ---------------------------------------------------------------- extractor output written blind

/**
 * Extractor output written later by people who had not seen the gate (bench/data/README.md): each file
 * says in its name which transcripts it covers and whether it has guided a rule since (`dev`) or was
 * only ever measured (`blind`).
 */
const WRITTEN_SETS = [
  'admission-llm-dev-b.jsonl',
  'admission-llm-dev-d.jsonl',
  'admission-llm-blind-c.jsonl',
  'admission-llm-es-dev.jsonl',
  'admission-llm-es-blind.jsonl',
  'admission-llm-dev-e.jsonl',
  'admission-llm-blind-f.jsonl',
  'admission-llm-es-dev-2.jsonl',
  'admission-llm-es-blind-2.jsonl',
  'admission-llm-conv-blind-g.jsonl',
  'admission-llm-conv-blind-h.jsonl',
  'admission-llm-conv-dev-i.jsonl',
  'admission-llm-conv-dev-j.jsonl',
  'admission-llm-conv-es-dev-k.jsonl',
  'admission-llm-conv-es-dev-l.jsonl',
  'admission-llm-conv-es-blind-m.jsonl',
  'admission-llm-conv-zh-dev-o.jsonl',
  'admission-llm-conv-zh-blind-p.jsonl',
  'admission-llm-conv-zh-blind-n.jsonl',
];

function printWrittenSets(): void {
  const rows = WRITTEN_SETS.map((f) => {
    const scored = loadJsonl<RealRow>(join(DATA_DIR, f)).map((r) => ({
      label: r.label,
      admitted: admit({ text: r.text, source: 'llm' }).admitted,
    }));
    const m = rates(scored);
    return [f, m.n, m.keep, m.junk, m.precision, m.recall, pct(m.junkAdmitted), pct(m.keepRejected)];
  });
  printTable('Gate alone on extractor output written blind to the gate (see bench/data/README.md)', ['file', ...HEADERS.slice(1)], rows);
  printGroundedSets({ dataDir: DATA_DIR });
  printWrittenUserSets({ dataDir: DATA_DIR });
  printJunkModelCost({ dataDir: DATA_DIR });
  printWrittenSummarySets({ dataDir: DATA_DIR });
  printWrittenAssistantSets({ dataDir: DATA_DIR });
}

// ---------------------------------------------------------------- secondary: the synthetic set

interface SyntheticRow {
  text: string;
  label: 'keep' | 'junk';
  kind: string;
}

/** The older written set (short clean sentences): kept as a secondary table, not a target. */
function runSyntheticTable(): void {
  const files = [
    'admission-set.jsonl',
    'admission-holdout-r1.jsonl',
    'admission-holdout-r2.jsonl',
    'admission-holdout-r3.jsonl',
    'admission-holdout-r4.jsonl',
  ];
  const rows = files.map((f) => {
    const scored = loadJsonl<SyntheticRow>(join(DATA_DIR, f)).map((r) => ({ label: r.label, admitted: admit({ text: r.text }).admitted }));
    const m = rates(scored);
    return [f, m.n, m.keep, m.junk, m.precision, m.recall, pct(m.junkAdmitted), pct(m.keepRejected)];
  });
  printTable('Secondary: the synthetic written sets (short clean sentences, gate alone, no source)', ['file', ...HEADERS.slice(1)], rows);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runAdmissionBench(admissionFlags(process.argv));
}
