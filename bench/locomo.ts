/**
 * LoCoMo evidence retrieval (task: ../shared/bench/README.md), three ways, each in this one run:
 *   - baseline: Okapi BM25 + session date over "date speaker: text" (bench/lib/bm25.ts);
 *   - memory path: every turn remembered as a memory (validFrom = session date) in a fresh store,
 *     each question a `strata.recall`;
 *   - conversation path: each conversation written as JSONL transcripts (one file per session)
 *     and ingested by `strata.ingest` into a fresh home (L0 log, conversation indexer: each turn's
 *     lexical text with its neighbours and date, its own words embedded), each question a
 *     `strata.searchConversations` limited to that conversation's agent.
 * Each path prints its default and its ablations (one component off at a time) with per-category
 * R@10 and both halves of the file (first half of the conversations vs the rest), so a choice
 * that only helps one half shows. Recall runs with minScore 0 and no reranker (ranking quality).
 * `STRATA_LOCOMO` may point at another LoCoMo file; the file read is named in every title.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Strata } from '../src/strata.js';
import type { RememberInput } from '../src/core/engine/types.js';
import { type RecallConfigInput } from '../src/core/recall/config.js';
import { formatContextBlock } from '../src/core/recall/context-format.js';
import { estimateTokens } from '../src/core/recall/tokens.js';
import { spokenDate } from '../src/core/recall/conversation/turn-text.js';
import { Bm25Index } from './lib/bm25.js';
import { CATEGORIES, KS, loadLocomo, mean, mrr, RunScores, type Locomo, type Turn } from './lib/locomo-data.js';
import { printTable } from './lib/table.js';

export { LOCOMO_PATH, loadLocomo, parseSessionDate, repairEvidence } from './lib/locomo-data.js';

/** `names` false (conversation path): transcript lines carry the words alone, not the speaker's name. */
type Variant = { name: string; recall: RecallConfigInput; names?: boolean };

export const MEMORY_VARIANTS: Variant[] = [
  { name: 'hybrid (default)', recall: {} },
  { name: 'lexical only', recall: { mode: 'lexical' } },
  { name: 'dense only', recall: { mode: 'vector' } },
  {
    name: 'fusion of main (weighted, best hit = 1, floor)',
    recall: { fusion: { method: 'weighted', lexicalCoverage: false }, scoring: { questionFactor: 1, dateWeight: 0 } },
  },
  { name: '- query-word coverage', recall: { fusion: { lexicalCoverage: false } } },
  { name: '- noisy-OR (weighted 0.6/0.4)', recall: { fusion: { method: 'weighted' } } },
  { name: '- question factor', recall: { scoring: { questionFactor: 1 } } },
  { name: '- dates', recall: { scoring: { dateWeight: 0 } } },
  { name: 'rrf', recall: { fusion: { method: 'rrf' } } },
];

export const CONVERSATION_VARIANTS: Variant[] = [
  { name: 'hybrid (default)', recall: {} },
  { name: 'lexical only', recall: { mode: 'lexical' } },
  { name: 'dense only', recall: { mode: 'vector' } },
  { name: '- speaker names in the transcript', recall: {}, names: false },
  { name: '- query-word coverage', recall: { fusion: { lexicalCoverage: false } } },
  { name: '- question factor', recall: { scoring: { questionFactor: 1 } } },
  { name: '- dates', recall: { scoring: { dateWeight: 0 } } },
  {
    name: 'fusion of main (weighted, best hit = 1, floor)',
    recall: { fusion: { method: 'weighted', lexicalCoverage: false }, scoring: { questionFactor: 1, dateWeight: 0 } },
  },
];

const memoryText = (t: Turn) => `${t.speaker}: ${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`;
const ownText = (t: Turn) => `${t.text}${t.blip_caption ? ` [shares a photo: ${t.blip_caption}]` : ''}`;

function firstHalf(data: Locomo): Set<string> {
  return new Set(data.samples.slice(0, Math.ceil(data.samples.length / 2)).map((s) => s.sample_id));
}

function runBaseline(data: Locomo): RunScores {
  const scores = new RunScores(firstHalf(data));
  for (const s of data.samples) {
    const turns = data.turns.get(s.sample_id)!;
    const index = new Bm25Index(turns.map((t) => `${t.date ? spokenDate(Date.parse(t.date)) : ''} ${t.speaker}: ${t.text}`));
    for (const q of data.questions.filter((x) => x.sample === s.sample_id))
      scores.add(
        q,
        index.search(q.question, 20).map((i) => turns[i]!.dia_id),
      );
  }
  return scores;
}

async function runMemoryPath(data: Locomo, variants: Variant[]) {
  const home = await mkdtemp(join(tmpdir(), 'strata-locomo-memory-'));
  const out: Array<{ variant: Variant; scores: RunScores }> = [];
  let ingestSeconds = 0;
  let context = { block: 0, full: 0 };
  try {
    for (const [i, variant] of variants.entries()) {
      const strata = await Strata.open({ home, overrides: { embedder: { provider: 'local' }, recall: variant.recall } as never });
      try {
        if (i === 0) {
          const started = performance.now();
          for (const s of data.samples) {
            const items: RememberInput[] = data.turns.get(s.sample_id)!.map((t) => ({
              text: memoryText(t),
              scope: `custom:locomo-${s.sample_id}`,
              category: 'event',
              validFrom: t.date,
              source: { kind: 'import', sessionKey: s.sample_id, messageIds: [t.dia_id] },
            }));
            await strata.rememberMany({ items, nearDuplicates: false });
          }
          ingestSeconds = (performance.now() - started) / 1000;
        }
        const scores = new RunScores(firstHalf(data));
        let block = 0;
        let full = 0;
        for (const q of data.questions) {
          const result = await strata.recall({
            query: q.question,
            scopes: [`custom:locomo-${q.sample}`],
            limit: 20,
            rerank: false,
            minScore: 0,
            now: data.now.get(q.sample),
          });
          scores.add(
            q,
            result.results.map((r) => r.record.source.messageIds?.[0] ?? ''),
          );
          if (i === 0) {
            block += estimateTokens(formatContextBlock({ results: result.results.slice(0, 10), maxTokens: 100_000 }));
            full += estimateTokens(data.turns.get(q.sample)!.map(memoryText).join('\n'));
          }
        }
        if (i === 0) context = { block: block / data.questions.length, full: full / data.questions.length };
        out.push({ variant, scores });
      } finally {
        await strata.close();
      }
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  return { runs: out, ingestSeconds, context };
}

/**
 * Writes each conversation as JSONL transcripts (one file per session, the first speaker as
 * `user`) and ingests them through the product: `strata.ingest` appends to the L0 log and the
 * conversation indexer follows it, then the background embedding catches up. Two people talk in
 * LoCoMo, so a line carries its speaker's name as a chat log of people does (`withNames` false:
 * the words alone, the role the only speaker).
 */
async function ingestConversations(data: Locomo, strata: Strata, root: string, withNames: boolean): Promise<number> {
  let turnsWritten = 0;
  for (const s of data.samples) {
    const turns = data.turns.get(s.sample_id)!;
    const speakerA = String(s.conversation.speaker_a);
    const dir = join(root, s.sample_id);
    await mkdir(dir, { recursive: true });
    const sessions = new Map<number, string[]>();
    turns.forEach((t, i) => {
      const timestamp = (t.date ? Date.parse(t.date) : 0) + i * 1000;
      const content = withNames ? memoryText(t) : ownText(t);
      const line = JSON.stringify({ id: t.dia_id, role: t.speaker === speakerA ? 'user' : 'assistant', content, timestamp });
      sessions.set(t.session, [...(sessions.get(t.session) ?? []), line]);
    });
    for (const [n, lines] of sessions) await writeFile(join(dir, `session_${String(n).padStart(2, '0')}.jsonl`), lines.join('\n') + '\n');
    const summary = await strata.ingest({ sources: [{ kind: 'jsonl', root: dir }], agentId: s.sample_id });
    turnsWritten += summary.messages.new;
  }
  for (;;) {
    const { embedded, remaining } = await strata.embedConversations({ batchSize: 256 });
    if (remaining === 0 || embedded === 0) break;
  }
  return turnsWritten;
}

/** The JSONL reader keeps a given id as the entry id's prefix (`D1:3#fingerprint`). */
const diaId = (entryId: string) => entryId.split('#')[0] ?? entryId;

async function runConversationPath(data: Locomo, variants: Variant[]) {
  const out: Array<{ variant: Variant; scores: RunScores }> = [];
  const homes = new Map<boolean, string>();
  let ingestSeconds = 0;
  let turns = 0;
  try {
    for (const variant of variants) {
      const withNames = variant.names ?? true;
      const fresh = !homes.has(withNames);
      if (fresh) homes.set(withNames, await mkdtemp(join(tmpdir(), 'strata-locomo-conversations-')));
      const home = homes.get(withNames)!;
      const strata = await Strata.open({ home, overrides: { embedder: { provider: 'local' }, recall: variant.recall } as never });
      try {
        if (fresh) {
          const started = performance.now();
          const written = await ingestConversations(data, strata, join(home, 'transcripts'), withNames);
          if (withNames) [ingestSeconds, turns] = [(performance.now() - started) / 1000, written];
        }
        const scores = new RunScores(firstHalf(data));
        for (const q of data.questions) {
          const hits = await strata.searchConversations({
            query: q.question,
            limit: 20,
            agentIds: [q.sample],
            now: data.now.get(q.sample),
          });
          scores.add(
            q,
            hits.map((h) => diaId(h.record.id)),
          );
        }
        out.push({ variant, scores });
      } finally {
        await strata.close();
      }
    }
  } finally {
    for (const home of homes.values()) await rm(home, { recursive: true, force: true });
  }
  return { runs: out, ingestSeconds, turns };
}

const HEADERS = [
  'run',
  'questions',
  'R@1',
  'R@5',
  'R@10',
  'R@20',
  'all@10',
  'MRR',
  ...[1, 2, 3, 4].map((c) => `R@10 ${CATEGORIES[c]}`),
  'R@10 half A',
  'R@10 half B',
];
function row(label: string, s: RunScores): Array<string | number> {
  const o = s.overall;
  return [
    label,
    o.n,
    ...KS.map((k) => mean(o, k)),
    o.n ? o.all10 / o.n : 0,
    mrr(o),
    ...[1, 2, 3, 4].map((c) => (s.byCategory[c] ? mean(s.byCategory[c]!, 10) : 0)),
    mean(s.halves[0], 10),
    mean(s.halves[1], 10),
  ];
}

export async function runLocomo(options: { paths?: Array<'memory' | 'conversation'>; ablations?: boolean } = {}) {
  const data = loadLocomo();
  if (!data) {
    console.log('LoCoMo: data file not found (set STRATA_LOCOMO), skipped');
    return null;
  }
  const file = basename(data.path);
  const half = firstHalf(data);
  console.log(
    `LoCoMo evidence retrieval on ${data.path}: ${data.samples.length} conversations, ${data.questions.length} questions (categories 1-4); ` +
      `half A = ${[...half].join(', ')}, half B = the rest.`,
  );
  const paths = options.paths ?? ['memory', 'conversation'];
  const ablations = options.ablations ?? true;
  const baseline = runBaseline(data);
  if (paths.includes('memory')) {
    const memory = await runMemoryPath(data, ablations ? MEMORY_VARIANTS : MEMORY_VARIANTS.slice(0, 1));
    printTable(`${file} — memory path (every turn remembered; remember took ${memory.ingestSeconds.toFixed(0)} s)`, HEADERS, [
      row('BM25 + date (baseline)', baseline),
      ...memory.runs.map((r) => row(r.variant.name, r.scores)),
    ]);
    printTable(
      `${file} — memory path context size (tokens, mean per question)`,
      ['top-10 block', 'full conversation', 'ratio'],
      [[memory.context.block, memory.context.full, memory.context.block / memory.context.full]],
    );
  }
  if (paths.includes('conversation')) {
    const conv = await runConversationPath(data, ablations ? CONVERSATION_VARIANTS : CONVERSATION_VARIANTS.slice(0, 1));
    printTable(
      `${file} — conversation path through the product (${conv.turns} turns ingested by strata.ingest; ingest + index + embed took ${conv.ingestSeconds.toFixed(0)} s)`,
      HEADERS,
      [row('BM25 + date (baseline)', baseline), ...conv.runs.map((r) => row(r.variant.name, r.scores))],
    );
    printTable(
      `${file} — conversation path (default) per category vs BM25 + date`,
      ['category', 'questions', 'R@10', 'MRR', 'BM25+date R@10', 'BM25+date MRR'],
      [1, 2, 3, 4].map((c) => {
        const mine = conv.runs[0]!.scores.byCategory[c];
        const base = baseline.byCategory[c];
        return [
          CATEGORIES[c]!,
          mine?.n ?? 0,
          mine ? mean(mine, 10) : 0,
          mine ? mrr(mine) : 0,
          base ? mean(base, 10) : 0,
          base ? mrr(base) : 0,
        ];
      }),
    );
  }
  return { baseline };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const paths = args.filter((a): a is 'memory' | 'conversation' => a === 'memory' || a === 'conversation');
  await runLocomo({ paths: paths.length > 0 ? paths : undefined, ablations: !args.includes('--no-ablations') });
}
