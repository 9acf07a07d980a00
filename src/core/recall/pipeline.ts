/**
 * The recall pipeline: cleanup -> retrieval (lexical || vector) -> filter check -> fusion ->
 * optional rerank -> metadata scoring -> min score -> diversity -> limit. Every stage is a small
 * function in its own module; this file only sequences them and records what each one did.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import { MEMORY_CATEGORIES, type MemoryFilter, type MemoryRecord, type MemoryStoreV1, type RerankerV1 } from '../../spec/index.js';
import { assertScopeSet } from '../scope.js';
import { resolveRecallConfig, type RecallConfig, type RecallConfigInput } from './config.js';
import { cosineSimilarity, demoteNearDuplicates } from './diversity.js';
import { fuse, type ChannelHit } from './fusion.js';
import { cleanQuery } from './query-cleanup.js';
import { rerankCandidates, type RerankOutcome } from './rerank.js';
import { retrieveCandidates, type EmbedQuery } from './retrieve.js';
import { applyScoring } from './scoring.js';
import { parseQueryTime } from './dates.js';
import { contentTerms, termCoverage } from './terms.js';
import { round, SCORE_SCALE, toExplain, toHit, type Working } from './explain.js';
import type { RecallExplain, RecallHit, RecallOptions, RecallResult } from './types.js';

export interface RecallPipelineOptions {
  store: MemoryStoreV1;
  /** Embeds the query; resolve null when no vector is available (the pipeline then runs lexical-only). */
  embedQuery: EmbedQuery;
  reranker?: RerankerV1;
  /** Partial settings merged onto DEFAULT_RECALL_CONFIG (validated; throws InvalidArgumentError). */
  config?: RecallConfigInput;
}

export interface RecallPipeline {
  readonly config: RecallConfig;
  recall(options: RecallOptions): Promise<RecallResult>;
}

export function createRecallPipeline(options: RecallPipelineOptions): RecallPipeline {
  const config = resolveRecallConfig({ config: options.config });
  const { store, embedQuery, reranker } = options;
  return { config, recall: (recallOptions) => runRecall({ store, embedQuery, reranker, config, options: recallOptions }) };
}

function validate(options: RecallOptions, config: RecallConfig): { scopes: string[]; limit: number; minScore: number } {
  if (typeof options?.query !== 'string') throw new InvalidArgumentError({ argument: 'query', message: 'query must be a string.' });
  const scopes = assertScopeSet(options.scopes);
  const limit = options.limit ?? config.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > config.maxLimit) {
    throw new InvalidArgumentError({ argument: 'limit', message: `limit must be an integer from 1 to ${config.maxLimit} (got ${limit}).` });
  }
  const minScore = options.minScore ?? config.minScore;
  if (!Number.isFinite(minScore) || minScore < 0) {
    throw new InvalidArgumentError({ argument: 'minScore', message: `minScore must be a number >= 0 (got ${minScore}).` });
  }
  for (const category of options.categories ?? []) {
    if (!(MEMORY_CATEGORIES as readonly string[]).includes(category)) {
      throw new InvalidArgumentError({
        argument: 'categories',
        message: `Unknown category ${JSON.stringify(category)}: use one of ${MEMORY_CATEGORIES.join(', ')}.`,
      });
    }
  }
  return { scopes, limit, minScore };
}

/** Defence in depth: a store bug must never leak another scope's or a superseded memory. */
function filterViolation(record: MemoryRecord, filter: MemoryFilter): string | undefined {
  if (!filter.scopes.includes(record.scope)) return `store returned scope ${record.scope}, not in the requested scopes`;
  if (!filter.includeHistory && record.validTo !== null) return 'store returned a superseded/expired memory without includeHistory';
  if (filter.categories && filter.categories.length > 0 && !filter.categories.includes(record.category))
    return `store returned category ${record.category}, not requested`;
  return undefined;
}

async function runRecall(args: {
  store: MemoryStoreV1;
  embedQuery: EmbedQuery;
  reranker: RerankerV1 | undefined;
  config: RecallConfig;
  options: RecallOptions;
}): Promise<RecallResult> {
  const { store, config, options } = args;
  const started = performance.now();
  const timings: Record<string, number> = {};
  const time = <T>(key: string, fn: () => T): T => {
    const s = performance.now();
    try {
      return fn();
    } finally {
      timings[key] = (timings[key] ?? 0) + performance.now() - s;
    }
  };
  const { scopes, limit, minScore } = validate(options, config);
  const signal = options.abortSignal;
  signal?.throwIfAborted();
  const now = (options.now ?? new Date()).getTime();
  const cleaned = time('cleanup', () => cleanQuery({ text: options.query, maxChars: config.queryMaxChars }));
  const filter: MemoryFilter = {
    scopes,
    includeHistory: options.includeHistory ?? false,
    ...(options.categories?.length ? { categories: [...options.categories] } : {}),
  };
  const pool = Math.min(config.candidatePoolMax, Math.max(config.candidatePoolMin, Math.ceil(limit * config.candidatePoolMultiplier)));
  const notes: string[] = [];
  const dateStarted = performance.now();
  const dateRange = await parseQueryTime({ query: cleaned.text, now: new Date(now) });
  timings.dates = performance.now() - dateStarted;
  const explain: RecallExplain = {
    query: {
      original: options.query,
      cleaned: cleaned.text,
      removed: cleaned.removed,
      truncated: cleaned.truncated,
      ...(dateRange
        ? { time: { text: dateRange.text, from: new Date(dateRange.start).toISOString(), to: new Date(dateRange.end).toISOString() } }
        : {}),
    },
    filter,
    limit,
    candidatePool: pool,
    minScore,
    channels: { lexical: { used: false, hits: 0 }, vector: { used: false, hits: 0 } },
    fusion: { ...config.fusion },
    rerank: { applied: false, window: 0 },
    notes,
    candidates: [],
    dropped: [],
    scale: SCORE_SCALE,
  };
  const finish = (results: RecallHit[]): RecallResult => {
    timings.total = performance.now() - started;
    return { query: cleaned.text, results, timings, ...(options.explain ? { explain } : {}) };
  };
  if (cleaned.text.length === 0) {
    notes.push('query is empty after cleanup; nothing searched');
    return finish([]);
  }

  // 1. Retrieval.
  const retrieved = await retrieveCandidates({
    store,
    embedQuery: args.embedQuery,
    query: cleaned.text,
    filter,
    pool,
    embedTimeoutMs: config.embedTimeoutMs,
    mode: config.mode,
    abortSignal: signal,
  });
  Object.assign(timings, retrieved.timings);
  explain.channels = { lexical: retrieved.lexical.report, vector: retrieved.vector.report };
  for (const report of [retrieved.lexical.report, retrieved.vector.report]) if (report.note) notes.push(report.note);

  const working = new Map<string, Working>();
  const dropped: Working[] = [];
  const admit = (hits: readonly { record: MemoryRecord; score: number; vector?: number[] | null }[] | null): ChannelHit[] | null => {
    if (!hits) return null;
    const out: ChannelHit[] = [];
    for (const hit of hits) {
      if (!working.has(hit.record.id) && !dropped.some((d) => d.record.id === hit.record.id)) {
        const violation = filterViolation(hit.record, filter);
        if (violation) {
          dropped.push({ record: hit.record, dropped: { stage: 'filter', reason: violation } });
          continue;
        }
        working.set(hit.record.id, { record: hit.record, ...(hit.vector !== undefined ? { vector: hit.vector } : {}) });
      }
      if (working.has(hit.record.id)) out.push({ id: hit.record.id, score: hit.score });
    }
    return out;
  };
  const lexicalHits = admit(retrieved.lexical.hits);
  const vectorHits = admit(retrieved.vector.hits);

  // 2. Stored vectors: true cosines for lexical-only candidates, and vectors for the diversity stage.
  const extraVectorScores = new Map<string, number>();
  const queryVector = retrieved.queryVector;
  if (queryVector && working.size > 0 && (config.fusion.completeVectorScores || config.diversity.enabled)) {
    const s = performance.now();
    try {
      // Searches normally return vectors with their hits; fetch only what is still missing.
      const missing = [...working].filter(([, w]) => w.vector === undefined).map(([id]) => id);
      const stored = missing.length > 0 ? await store.get({ ids: missing, withVectors: true }) : [];
      const present = new Set(stored.map((row) => row.id));
      for (const [id, w] of working) {
        if (w.vector !== undefined) {
          if (w.vector && w.vector.length === queryVector.length) extraVectorScores.set(id, cosineSimilarity(queryVector, w.vector));
          continue;
        }
        if (present.has(id)) continue;
        // A search index can briefly outlive a deleted row; never return a memory that no longer exists.
        working.delete(id);
        dropped.push({ ...w, dropped: { stage: 'filter', reason: 'not found in the store (stale index entry)' } });
      }
      for (const row of stored) {
        const w = working.get(row.id);
        if (!w) continue;
        w.vector = row.vector;
        if (row.vector && row.vector.length === queryVector.length)
          extraVectorScores.set(row.id, cosineSimilarity(queryVector, row.vector));
      }
    } catch (error) {
      signal?.throwIfAborted();
      notes.push(
        `could not load stored vectors (${(error as Error).message}); missing cosines count as 0 and diversity uses token overlap`,
      );
    }
    timings.vectors = performance.now() - s;
  }

  // 3. Fusion (over surviving candidates only, so a dropped hit cannot set the BM25 maximum).
  const alive = (hits: ChannelHit[] | null) => (hits ? hits.filter((h) => working.has(h.id)) : null);
  const fused = time('fusion', () => {
    const queryTerms = contentTerms(cleaned.text);
    const coverage = new Map([...working].map(([id, w]) => [id, termCoverage({ queryTerms, text: w.record.text })]));
    return fuse({
      lexical: alive(lexicalHits),
      vector: alive(vectorHits),
      coverage,
      extraVectorScores: config.fusion.completeVectorScores ? extraVectorScores : undefined,
      config: config.fusion,
    });
  });
  fused.kept.forEach((c, i) => {
    const w = working.get(c.id);
    if (w) Object.assign(w, { fusedCandidate: c, fusedRank: i + 1 });
  });
  for (const { candidate, reason } of fused.excluded) {
    const w = working.get(candidate.id);
    if (!w) continue;
    working.delete(candidate.id);
    dropped.push({ ...w, fusedCandidate: candidate, dropped: { stage: 'fusion', reason } });
  }
  let ranked = fused.kept.map((c) => working.get(c.id)).filter((w): w is Working => w !== undefined);

  // 4. Rerank (optional).
  const rerankOutcome = await runRerankStage({ ...args, query: cleaned.text, ranked, limit, timings });
  if (rerankOutcome) {
    explain.rerank = {
      applied: rerankOutcome.applied,
      window: rerankOutcome.window,
      reranker: args.reranker?.id,
      ...(rerankOutcome.note ? { note: rerankOutcome.note } : {}),
    };
    if (rerankOutcome.note) notes.push(rerankOutcome.note);
  } else if (options.rerank === true && !args.reranker) {
    notes.push('rerank requested but no reranker is configured');
  }

  // 5. Metadata scoring, then min score.
  time('scoring', () => {
    for (const w of ranked) {
      const base = w.rerank?.blended ?? w.fusedCandidate?.fused ?? 0;
      w.scored = applyScoring({ record: w.record, score: base, now, config: config.scoring, dateRange });
    }
    ranked.sort((a, b) => (b.scored?.score ?? 0) - (a.scored?.score ?? 0) || (a.fusedRank ?? 0) - (b.fusedRank ?? 0));
    ranked = ranked.filter((w) => {
      const score = w.scored?.score ?? 0;
      if (score >= minScore) return true;
      dropped.push({ ...w, dropped: { stage: 'min-score', reason: `final score ${round(score)} < minScore ${minScore}` } });
      return false;
    });
  });

  // 6. Diversity: near-duplicates move to the end, then the limit applies.
  time('diversity', () => {
    const { order, demoted } = demoteNearDuplicates({
      items: ranked.map((w) => ({ id: w.record.id, text: w.record.text, vector: w.vector ?? null })),
      config: config.diversity,
      keep: options.explain ? undefined : limit, // explain reports every demotion
    });
    for (const d of demoted) {
      const w = working.get(d.id);
      if (w) w.demoted = { similarTo: d.similarTo, similarity: round(d.similarity), by: d.by };
    }
    ranked = order.map((id) => working.get(id)).filter((w): w is Working => w !== undefined);
  });
  for (const w of ranked.slice(limit)) {
    dropped.push({
      ...w,
      dropped: {
        stage: 'limit',
        reason: w.demoted ? `near-duplicate of ${w.demoted.similarTo}, demoted past limit ${limit}` : `beyond limit ${limit}`,
      },
    });
  }
  ranked = ranked.slice(0, limit);

  const results: RecallHit[] = ranked.map((w) => toHit(w));
  if (options.explain) {
    explain.candidates = [...ranked.map((w, i) => toExplain(w, i + 1)), ...dropped.map((w) => toExplain(w))];
    explain.dropped = dropped.map((w) => ({ id: w.record.id, stage: w.dropped!.stage, reason: w.dropped!.reason }));
  }
  return finish(results);
}

async function runRerankStage(args: {
  reranker: RerankerV1 | undefined;
  config: RecallConfig;
  options: RecallOptions;
  query: string;
  ranked: Working[];
  limit: number;
  timings: Record<string, number>;
}): Promise<RerankOutcome | undefined> {
  const { reranker, config, options, ranked } = args;
  // An explicit per-call `rerank: true` overrides `rerank.enabled: false` in the config.
  if (!reranker || options.rerank === false || (!config.rerank.enabled && options.rerank !== true)) return undefined;
  const s = performance.now();
  const outcome = await rerankCandidates({
    reranker,
    query: args.query,
    candidates: ranked.map((w) => ({
      id: w.record.id,
      text: w.record.text,
      fused: w.fusedCandidate?.fused ?? 0,
      lexicalNormalized: w.fusedCandidate?.lexical?.calibrated,
    })),
    window: Math.max(config.rerank.window, 2 * args.limit),
    config: config.rerank,
    abortSignal: options.abortSignal,
  });
  args.timings.rerank = performance.now() - s;
  if (outcome.applied) {
    const order = [...outcome.scores.entries()].sort((a, b) => b[1].score - a[1].score);
    order.forEach(([id, value], i) => {
      const w = ranked.find((r) => r.record.id === id);
      if (w) w.rerank = { ...(value.rerank !== undefined ? { score: value.rerank } : {}), blended: value.score, rank: i + 1 };
    });
  }
  return outcome;
}
