/**
 * Offline supersession on scenarios written blind: a user states something, later restates it,
 * changes it, or states a second thing that looks alike but does not replace it, each on its own
 * day. Every message is captured and distilled by rules (no LLM) in a fresh home, one run per day as
 * the hooks would, and the memories left current are checked against the scenario's roles.
 * Run: `npm run bench -- supersession` (`--embedder=none` for the lexical-only path, `--show`
 * to list the failures, `--sets=en-a` to run some sets only, `--statements` for the first table only (how many statements
 * the rules learn, no distill), `--same-session` to say everything in
 * one session distilled once at its end, as a hook does when the session closes). Data: bench/data/supersession-*.jsonl (see bench/data/README.md).
 */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDistill } from '../src/core/distill/index.js';
import type { EngineContext } from '../src/core/engine/context.js';
import type { MemoryRecord } from '../src/spec/memory-record.js';
import { Strata } from '../src/strata.js';
import { UNCAPPED } from './lib/real-home.js';
import { captureByRules } from '../src/core/distill/rules.js';
import { carriesShorthand } from './lib/shorthand-left.js';
import { judgeScenario, readScenarioSets, type Outcome, type Scenario, type ScenarioSet } from './lib/supersession-data.js';
import { printTable } from './lib/table.js';

const DAY_MS = 86_400_000;
const START = Date.parse('2026-01-05T09:00:00Z');

/** How many other scenarios' first statements each home holds before the scenario starts. */
const DISTRACTORS = 30;

/**
 * Distils a scenario day by day in a fresh home that already holds the first statements of other
 * scenarios (as a real home holds other memories); returns every memory, current or past.
 */
export async function runScenario(
  s: Scenario,
  options: { embedder: 'local' | 'none'; distractors?: Scenario[]; sameSession?: boolean },
): Promise<MemoryRecord[]> {
  const { embedder, distractors = [], sameSession = false } = options;
  const home = await mkdtemp(join(tmpdir(), 'strata-bench-supersession-'));
  const strata = await Strata.open({ home, overrides: { embedder: { provider: embedder } } });
  try {
    const ctx = (strata as unknown as { ctx: EngineContext }).ctx;
    await mkdir(join(home, 'conversations'), { recursive: true });
    if (distractors.length > 0) {
      const at = new Date(START).toISOString();
      const base = { sessionKey: 'agent:main:seed', sessionId: 'seed', agentId: 'main', host: 'live' as const };
      const records = distractors.map((d, i) => ({
        ...base,
        id: `seed:${d.id}`,
        role: 'user' as const,
        content: d.messages[0]!.text,
        timestamp: Date.parse(at) + i * 60_000,
        recordedAt: at,
      }));
      await appendFile(join(home, 'conversations', `${at.slice(0, 10)}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      await runDistill({ ctx, home, caps: UNCAPPED, now: () => new Date(Date.parse(at) + 3 * 3_600_000) });
    }
    // One session: every message a few minutes apart on the last day, distilled once at its end.
    const lastDay = Math.max(...s.messages.map((m) => m.day));
    for (const [i, m] of s.messages.entries()) {
      const at = new Date(START + (sameSession ? lastDay : m.day) * DAY_MS + i * 60_000).toISOString();
      const session = sameSession ? s.id : `${s.id}-d${m.day}-${i}`;
      const base = { sessionKey: `agent:main:${session}`, sessionId: session, agentId: 'main', host: 'live' as const };
      const records = [
        { ...base, id: `${s.id}#${i}`, role: 'user' as const, content: m.text, timestamp: Date.parse(at), recordedAt: at },
        {
          ...base,
          id: `${s.id}#${i}-reply`,
          role: 'assistant' as const,
          content: 'Got it.',
          timestamp: Date.parse(at) + 5_000,
          recordedAt: at,
        },
      ];
      await appendFile(join(home, 'conversations', `${at.slice(0, 10)}.jsonl`), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const last = i === s.messages.length - 1;
      if (!sameSession || last) await runDistill({ ctx, home, caps: UNCAPPED, now: () => new Date(Date.parse(at) + 3_600_000) });
    }
    return await strata.list({ scopes: ['agent:main', 'global'], includeHistory: true, order: 'oldest', limit: 1_000 });
  } finally {
    await strata.close();
    await rm(home, { recursive: true, force: true });
  }
}

const KINDS = ['change', 'chain', 'restate', 'distinct'] as const;

/** How many statements (every message but noise) the rules learn a memory from: the reach of the triggers. */
function printStatementsLearned(sets: ScenarioSet[]): void {
  const rows = sets.map((set) => {
    const said = set.scenarios.flatMap((s) => s.messages.filter((m) => m.role !== 'noise'));
    const texts = said.map((m) => captureByRules({ text: m.text, role: 'user' }).map((c) => c.text));
    const learned = texts.filter((t) => t.length > 0).length;
    const stored = texts.flat();
    return [set.name, set.role, said.length, learned, `${stored.filter(carriesShorthand).length} of ${stored.length}`];
  });
  printTable(
    'Statements the rules learn a memory from (every message but noise), and memories whose stored text still carries chat shorthand',
    ['set', 'role', 'statements', 'learned', 'shorthand left'],
    rows,
  );
}

export async function runSupersessionBench(
  options: { embedder?: 'local' | 'none'; show?: boolean; sets?: string[]; sameSession?: boolean; statementsOnly?: boolean } = {},
): Promise<void> {
  const embedder = options.embedder ?? 'local';
  const sameSession = options.sameSession ?? false;
  const rows: Array<Array<string | number>> = [];
  const failures: string[] = [];
  const sets = readScenarioSets().filter((s) => !options.sets || options.sets.includes(s.name));
  printStatementsLearned(sets);
  if (options.statementsOnly) return;
  for (const set of sets) {
    const outcomes: Array<{ s: Scenario; o: Outcome; distractorsSuperseded: number; seedsBySeeds: number }> = [];
    for (const [k, s] of set.scenarios.entries()) {
      const others = Array.from(
        { length: Math.min(DISTRACTORS, set.scenarios.length - 1) },
        (_, j) => set.scenarios[(k + 1 + j) % set.scenarios.length]!,
      );
      const memories = await runScenario(s, { embedder, distractors: others, sameSession });
      const o = judgeScenario(
        s,
        memories.filter((m) => !(m.source.messageIds ?? []).some((id) => id.startsWith('seed:'))),
      );
      const seeded = (m: MemoryRecord | undefined) => (m?.source.messageIds ?? []).some((id) => id.startsWith('seed:'));
      const gone = memories.filter((m) => m.validTo !== null && seeded(m));
      // A seed the seeding run itself replaced is no error of the scenario's: it is counted apart.
      const bySeed = (m: MemoryRecord) => seeded(memories.find((x) => x.id === m.supersededBy));
      const hit = gone.filter((m) => !bySeed(m));
      outcomes.push({ s, o, distractorsSuperseded: hit.length, seedsBySeeds: gone.length - hit.length });
      if (hit.length > 0)
        failures.push(`${set.name} ${s.id}: superseded another scenario's memory\n${hit.map((m) => `      ${m.text}`).join('\n')}`);
      if (!o.right) failures.push(`${set.name} ${s.id} [${s.kind}] ${o.why}\n${o.detail}`);
    }
    for (const kind of [...KINDS, 'all'] as const) {
      const of = outcomes.filter((x) => kind === 'all' || x.s.kind === kind);
      if (of.length === 0) continue;
      const testable = of.filter((x) => x.o.testable);
      const count = (why: string) => of.filter((x) => x.o.why === why).length;
      rows.push([
        set.name,
        set.role,
        kind,
        of.length,
        of.filter((x) => x.o.right).length,
        testable.length,
        testable.filter((x) => x.o.right).length,
        count('not learned'),
        count('both current'),
        count('duplicate'),
        count('wrongly superseded'),
        of.reduce((n, x) => n + x.o.noiseStored, 0),
        of.reduce((n, x) => n + x.distractorsSuperseded, 0),
        of.reduce((n, x) => n + x.seedsBySeeds, 0),
      ]);
    }
  }
  printTable(
    `Offline supersession on scenarios written blind (rules, embedder ${embedder}; ${sameSession ? 'all messages in one session, one distill run at its end' : 'one distill run per day'}, ${DISTRACTORS} other memories in each home)`,
    [
      'set',
      'role',
      'kind',
      'scenarios',
      'right',
      'both learned',
      'right of those',
      'not learned',
      'both current',
      'duplicate',
      'wrongly superseded',
      'noise stored',
      'others superseded',
      'seed by seed',
    ],
    rows,
  );
  console.log(
    '\nright: the memories left current are what the scenario says (change/chain: only the latest statement; restate: one;' +
      ' distinct: both). both learned: the rules stored a memory from each statement the verdict needs, so the row says how' +
      ' reconciliation did on its own. Each home first holds the first statements of the next' +
      ` ${DISTRACTORS} scenarios of the set; others superseded counts those the scenario's messages wrongly replaced;` +
      ' seed by seed those the seeding run replaced with another seed (the same pair is counted in every home holding both).',
  );
  if (options.show) for (const f of failures) console.log(`\n${f}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runSupersessionBench(supersessionArgs(process.argv));
}

export function supersessionArgs(argv: string[]): Parameters<typeof runSupersessionBench>[0] {
  const sets = argv
    .find((a) => a.startsWith('--sets='))
    ?.slice('--sets='.length)
    .split(',');
  return {
    embedder: argv.includes('--embedder=none') ? 'none' : 'local',
    show: argv.includes('--show'),
    sameSession: argv.includes('--same-session'),
    statementsOnly: argv.includes('--statements'),
    ...(sets ? { sets } : {}),
  };
}
