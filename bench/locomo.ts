/**
 * LoCoMo evidence retrieval (task: ../shared/bench/README.md), three ways, each in this one run:
 *   - baseline: Okapi BM25 + session date over "date speaker: text" (bench/lib/bm25.ts);
 *   - memory path: every turn remembered as a memory (validFrom = session date) in a fresh store,
 *     each question a `strata.recall`;
 *   - conversation path: each conversation ingested as JSONL transcripts (one file per session)
 *     through the real capture pipeline into a fresh home's L0 log, every L0 turn indexed with its
 *     neighbours and session date (core buildTurnIndexText) in a prototype turn index, each
 *     question a core `searchConversationTurns`.
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
import { resolveRecallConfig, type RecallConfigInput } from '../src/core/recall/config.js';
import { formatContextBlock } from '../src/core/recall/context-format.js';
import { estimateTokens } from '../src/core/recall/tokens.js';
import { buildTurnIndexText, spokenDate } from '../src/core/recall/conversation/turn-text.js';
import { searchConversationTurns } from '../src/core/recall/conversation/search.js';
import { createJsonlL0Log } from '../src/backends/l0-jsonl/index.js';
import { ingest } from '../src/capture/ingest.js';
import type { L0Record } from '../src/spec/conversation.js';
import { createLocalEmbedder } from '../src/backends/embedder-local/index.js';
import { createEmbeddingService } from '../src/core/embedding/embedding-service.js';
import { Bm25Index } from './lib/bm25.js';
import { CATEGORIES, KS, loadLocomo, mean, mrr, RunScores, type Locomo, type Turn } from './lib/locomo-data.js';
import { createTurnIndex, type BenchTurn } from './lib/turn-index.js';
import { printTable } from './lib/table.js';

export { LOCOMO_PATH, loadLocomo, parseSessionDate, repairEvidence } from './lib/locomo-data.js';

/** `neighbours` false: each turn indexed alone; `denseOver` 'indexed': the dense channel embeds the index text, not the turn's own words. */
type Variant = { name: string; recall: RecallConfigInput; neighbours?: boolean; denseOver?: 'own' | 'indexed' };

export const MEMORY_VARIANTS: Variant[] = [
  { name: 'hybrid (default)', recall: {} },
  { name: 'lexical only', recall: { mode: 'lexical' } },
  { name: 'dense only', recall: { mode: 'vector' } },
  { name: 'fusion of main (weighted, best hit = 1, floor)', recall: { fusion: { method: 'weighted', lexicalCoverage: false }, scoring: { questionFactor: 1, dateWeight: 0 } } },
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
  { name: '- neighbours (turn alone + date)', recall: {}, neighbours: false },
  { name: 'dense over the index text, not own words', recall: {}, denseOver: 'indexed' },
  { name: '- query-word coverage', recall: { fusion: { lexicalCoverage: false } } },
  { name: '- question factor', recall: { scoring: { questionFactor: 1 } } },
  { name: '- dates', recall: { scoring: { dateWeight: 0 } } },
  { name: 'fusion of main (weighted, best hit = 1, floor)', recall: { fusion: { method: 'weighted', lexicalCoverage: false }, scoring: { questionFactor: 1, dateWeight: 0 } } },
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
    for (const q of data.questions.filter((x) => x.sample === s.sample_id)) scores.add(q, index.search(q.question, 20).map((i) => turns[i]!.dia_id));
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
              text: memoryText(t), scope: `custom:locomo-${s.sample_id}`, category: 'event', validFrom: t.date,
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
          const result = await strata.recall({ query: q.question, scopes: [`custom:locomo-${q.sample}`], limit: 20, rerank: false, minScore: 0, now: data.now.get(q.sample) });
          scores.add(q, result.results.map((r) => r.record.source.messageIds?.[0] ?? ''));
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

/** Writes each conversation as JSONL transcripts (one per session) and ingests them into a fresh home's L0 log. */
async function ingestConversations(data: Locomo, home: string): Promise<{ records: L0Record[]; speakers: Map<string, string> }> {
  const root = join(home, 'transcripts');
  const speakers = new Map<string, string>();
  const records: L0Record[] = [];
  for (const s of data.samples) {
    const turns = data.turns.get(s.sample_id)!;
    const speakerA = String(s.conversation.speaker_a);
    const dir = join(root, s.sample_id);
    await mkdir(dir, { recursive: true });
    const sessions = new Map<number, string[]>();
    turns.forEach((t, i) => {
      speakers.set(`${s.sample_id}/${t.dia_id}`, t.speaker);
      const timestamp = (t.date ? Date.parse(t.date) : 0) + i * 1000;
      const line = JSON.stringify({ id: t.dia_id, role: t.speaker === speakerA ? 'user' : 'assistant', content: ownText(t), timestamp });
      sessions.set(t.session, [...(sessions.get(t.session) ?? []), line]);
    });
    for (const [n, lines] of sessions) await writeFile(join(dir, `session_${String(n).padStart(2, '0')}.jsonl`), lines.join('\n') + '\n');
    await ingest({ home, log: createJsonlL0Log({ home }), sources: [{ kind: 'jsonl', root: dir }], agentId: s.sample_id, onRecords: (r) => void records.push(...r) });
  }
  return { records, speakers };
}

async function runConversationPath(data: Locomo, variants: Variant[]) {
  const home = await mkdtemp(join(tmpdir(), 'strata-locomo-conversations-'));
  const embedder = createLocalEmbedder();
  const embeddings = createEmbeddingService({ embedder });
  const out: Array<{ variant: Variant; scores: RunScores }> = [];
  try {
    const started = performance.now();
    const { records, speakers } = await ingestConversations(data, home);
    const sessions = new Map<string, L0Record[]>();
    for (const r of records) sessions.set(`${r.agentId}/${r.sessionId}`, [...(sessions.get(`${r.agentId}/${r.sessionId}`) ?? []), r]);
    const own = records.map((r) => `${speakers.get(`${r.agentId}/${r.id}`) ?? r.role}: ${r.content}`);
    const vectors = (await embeddings.embedDocuments({ texts: own })) ?? [];
    const vectorOf = new Map(records.map((r, i) => [r, vectors[i] ?? null]));
    const ingestSeconds = (performance.now() - started) / 1000;
    const indexes = new Map<string, Awaited<ReturnType<typeof createTurnIndex>>>();
    const kinds = new Set(variants.map((v) => `${v.neighbours ?? true}/${v.denseOver ?? 'own'}`));
    for (const kind of kinds) {
      const [neighbours, denseOver] = [kind.startsWith('true'), kind.endsWith('indexed') ? 'indexed' : 'own'];
      const turns: BenchTurn[] = [];
      for (const list of sessions.values()) {
        list.sort((a, b) => a.timestamp - b.timestamp);
        const forIndex = list.map((r) => ({ speaker: speakers.get(`${r.agentId}/${r.id}`) ?? r.role, text: r.content }));
        list.forEach((r, i) => {
          const indexedText = buildTurnIndexText({ turn: forIndex[i]!, ...(neighbours ? { previous: forIndex[i - 1], next: forIndex[i + 1] } : {}), time: list[0]!.timestamp });
          turns.push({ key: `${r.agentId}/${r.sessionId}/${r.id}`, conversation: r.agentId, messageId: r.id, speaker: forIndex[i]!.speaker, text: r.content, indexedText, time: list[0]!.timestamp, vector: vectorOf.get(r) ?? null });
        });
      }
      if (denseOver === 'indexed') {
        const indexedVectors = (await embeddings.embedDocuments({ texts: turns.map((t) => t.indexedText) })) ?? [];
        turns.forEach((t, i) => (t.vector = indexedVectors[i] ?? null));
      }
      indexes.set(kind, await createTurnIndex({ dir: join(home, `index-${indexes.size}`), turns, dimensions: embedder.dimensions }));
    }
    for (const variant of variants) {
      const config = resolveRecallConfig({ config: variant.recall });
      const index = indexes.get(`${variant.neighbours ?? true}/${variant.denseOver ?? 'own'}`)!;
      const scores = new RunScores(firstHalf(data));
      for (const q of data.questions) {
        const hits = await searchConversationTurns({
          source: index.source(q.sample), embedQuery: (o) => embeddings.embedQuery(o), query: q.question, limit: 20, config, now: data.now.get(q.sample),
        });
        scores.add(q, hits.map((h) => h.turn.messageId));
      }
      out.push({ variant, scores });
    }
    for (const index of indexes.values()) index.close();
    return { runs: out, ingestSeconds, turns: records.length };
  } finally {
    await embedder.close();
    await rm(home, { recursive: true, force: true });
  }
}

const HEADERS = ['run', 'questions', 'R@1', 'R@5', 'R@10', 'R@20', 'all@10', 'MRR', ...[1, 2, 3, 4].map((c) => `R@10 ${CATEGORIES[c]}`), 'R@10 half A', 'R@10 half B'];
function row(label: string, s: RunScores): Array<string | number> {
  const o = s.overall;
  return [label, o.n, ...KS.map((k) => mean(o, k)), o.n ? o.all10 / o.n : 0, mrr(o), ...[1, 2, 3, 4].map((c) => (s.byCategory[c] ? mean(s.byCategory[c]!, 10) : 0)), mean(s.halves[0], 10), mean(s.halves[1], 10)];
}

export async function runLocomo(options: { paths?: Array<'memory' | 'conversation'>; ablations?: boolean } = {}) {
  const data = loadLocomo();
  if (!data) {
    console.log('LoCoMo: data file not found (set STRATA_LOCOMO), skipped');
    return null;
  }
  const file = basename(data.path);
  const half = firstHalf(data);
  console.log(`LoCoMo evidence retrieval on ${data.path}: ${data.samples.length} conversations, ${data.questions.length} questions (categories 1-4); ` +
    `half A = ${[...half].join(', ')}, half B = the rest.`);
  const paths = options.paths ?? ['memory', 'conversation'];
  const ablations = options.ablations ?? true;
  const baseline = runBaseline(data);
  if (paths.includes('memory')) {
    const memory = await runMemoryPath(data, ablations ? MEMORY_VARIANTS : MEMORY_VARIANTS.slice(0, 1));
    printTable(`${file} — memory path (every turn remembered; remember took ${memory.ingestSeconds.toFixed(0)} s)`, HEADERS,
      [row('BM25 + date (baseline)', baseline), ...memory.runs.map((r) => row(r.variant.name, r.scores))]);
    printTable(`${file} — memory path context size (tokens, mean per question)`, ['top-10 block', 'full conversation', 'ratio'],
      [[memory.context.block, memory.context.full, memory.context.block / memory.context.full]]);
  }
  if (paths.includes('conversation')) {
    const conv = await runConversationPath(data, ablations ? CONVERSATION_VARIANTS : CONVERSATION_VARIANTS.slice(0, 1));
    printTable(`${file} — conversation path (${conv.turns} turns ingested as transcripts, indexed with neighbours; ingest + embed took ${conv.ingestSeconds.toFixed(0)} s)`, HEADERS,
      [row('BM25 + date (baseline)', baseline), ...conv.runs.map((r) => row(r.variant.name, r.scores))]);
  }
  return { baseline };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const paths = args.filter((a): a is 'memory' | 'conversation' => a === 'memory' || a === 'conversation');
  await runLocomo({ paths: paths.length > 0 ? paths : undefined, ablations: !args.includes('--no-ablations') });
}
