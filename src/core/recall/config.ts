/**
 * Recall configuration: one zod schema (every field optional, as in the config file) and the
 * documented defaults it is merged onto. The fusion default is provisional: the lead picks it by
 * measurement on LoCoMo (see fusion.ts for what each method guarantees).
 */
import { z } from 'zod';
import { InvalidArgumentError } from '../../errors/index.js';

const unit = z.number().min(0).max(1);
const positiveInt = z.number().int().positive();

export const fusionMethodSchema = z.enum(['calibrated', 'weighted', 'rrf', 'lexical-first']);
export type FusionMethod = z.infer<typeof fusionMethodSchema>;

const fusionSchema = z.strictObject({
  method: fusionMethodSchema,
  /** Weight of the max-normalised BM25 score (weighted) or of the lexical rank (rrf). */
  lexicalWeight: z.number().min(0),
  /** Weight of the rescaled cosine (weighted), of the vector rank (rrf), of vector-only hits (lexical-first). */
  vectorWeight: z.number().min(0),
  rrfK: z.number().positive(),
  /** Cosine at or below this counts as no similarity: unrelated texts still score 0.1-0.3. */
  vectorFloor: z.number().min(-1).max(1),
  /** Cosine at or above this counts as full similarity. */
  vectorCeiling: z.number().min(-1).max(1),
  /** weighted: a lexical hit with normalised score >= this keeps at least `strongLexicalKeep` x its score. */
  strongLexicalThreshold: unit,
  strongLexicalKeep: unit,
  /** lexical-first: vector-only hits need at least this cosine to be admitted at all. */
  vectorOnlyMinSimilarity: z.number().min(-1).max(1),
  /** Fetch vectors of lexical-only candidates so every candidate has a true cosine (one store.get call). */
  completeVectorScores: z.boolean(),
  /** Scale each lexical hit by the share of the query's content words it contains (fusion.ts). */
  lexicalCoverage: z.boolean(),
});

const rerankSchema = z.strictObject({
  /** Rerank when a reranker is configured (a call can still opt out with `rerank: false`). */
  enabled: z.boolean(),
  /** Candidates sent to the cross-encoder: max(window, 2 x limit), capped by the provider. */
  window: positiveInt,
  /** final = weight x rerank + (1 - weight) x fused. */
  weight: unit,
  timeoutMs: positiveInt,
  /** Multiplier for window candidates the provider did not score. */
  unreturnedPenalty: unit,
  /** A lexical hit at or above this normalised score never falls below `protectKeep` x its fused score. */
  protectLexicalThreshold: unit,
  protectKeep: unit,
});

const scoringSchema = z.strictObject({
  /** Multiplicative boost at age 0: x(1 + recencyWeight), halving every `recencyHalfLifeDays`. */
  recencyWeight: z.number().min(0),
  recencyHalfLifeDays: z.number().positive(),
  /** x(1 + importanceWeight x (importance - 0.5)): neutral importance leaves the score unchanged. */
  importanceWeight: z.number().min(0).max(2),
  /** x(1 + accessWeight x saturation(accessCount) x freshness(lastAccessedAt)). */
  accessWeight: z.number().min(0),
  accessSaturation: positiveInt,
  accessHalfLifeDays: z.number().positive(),
  /** Texts longer than this many characters are damped: x1/(1 + lengthPenalty x log2(len/anchor)). */
  lengthAnchorChars: positiveInt,
  lengthPenalty: z.number().min(0),
  /** Multiplier for a text that is a question (it asks rather than tells); 1 turns it off. */
  questionFactor: unit,
  /** How much a query naming a time (dates.ts) damps results dated away from it: x(1 - w x (1 - match)). */
  dateWeight: unit,
});

const diversitySchema = z.strictObject({
  enabled: z.boolean(),
  /** Cosine above which two results count as near-duplicates. */
  vectorThreshold: unit,
  /** Token-set Jaccard above which two results count as near-duplicates (used without vectors). */
  tokenThreshold: unit,
});

export const recallConfigSchema = z.strictObject({
  /** Channels to search: both (default), or one alone (for measurement and lexical-only setups). */
  mode: z.enum(['hybrid', 'lexical', 'vector']).optional(),
  defaultLimit: positiveInt.max(100).optional(),
  maxLimit: positiveInt.max(1000).optional(),
  /** Each channel returns max(candidatePoolMin, candidatePoolMultiplier x limit), at most candidatePoolMax. */
  candidatePoolMin: positiveInt.optional(),
  candidatePoolMultiplier: z.number().min(1).optional(),
  candidatePoolMax: positiveInt.optional(),
  /** Final scores below this are dropped (reported in explain). */
  minScore: z.number().min(0).optional(),
  queryMaxChars: positiveInt.optional(),
  /** The query embedding is abandoned after this long and recall continues lexical-only. */
  embedTimeoutMs: positiveInt.optional(),
  fusion: fusionSchema.partial().optional(),
  rerank: rerankSchema.partial().optional(),
  scoring: scoringSchema.partial().optional(),
  diversity: diversitySchema.partial().optional(),
});

export type RecallConfigInput = z.input<typeof recallConfigSchema>;

export interface RecallConfig {
  mode: 'hybrid' | 'lexical' | 'vector';
  defaultLimit: number;
  maxLimit: number;
  candidatePoolMin: number;
  candidatePoolMultiplier: number;
  candidatePoolMax: number;
  minScore: number;
  queryMaxChars: number;
  embedTimeoutMs: number;
  fusion: FusionConfig;
  rerank: RerankConfig;
  scoring: ScoringConfig;
  diversity: DiversityConfig;
}
export type FusionConfig = z.infer<typeof fusionSchema>;
export type RerankConfig = z.infer<typeof rerankSchema>;
export type ScoringConfig = z.infer<typeof scoringSchema>;
export type DiversityConfig = z.infer<typeof diversitySchema>;

export const DEFAULT_FUSION_CONFIG: Readonly<FusionConfig> = Object.freeze({
  method: 'calibrated',
  // Weights and the strong-lexical floor apply to the `weighted` method only.
  lexicalWeight: 0.6,
  vectorWeight: 0.4,
  rrfK: 60,
  vectorFloor: 0.2,
  vectorCeiling: 0.9,
  strongLexicalThreshold: 0.75,
  strongLexicalKeep: 0.92,
  vectorOnlyMinSimilarity: 0.6,
  completeVectorScores: true,
  lexicalCoverage: true,
});

export const DEFAULT_RECALL_CONFIG: Readonly<RecallConfig> = Object.freeze({
  mode: 'hybrid',
  defaultLimit: 5,
  maxLimit: 100,
  candidatePoolMin: 20,
  candidatePoolMultiplier: 2,
  candidatePoolMax: 200,
  // Calibrated scores (fusion.ts) are low for partial matches: a lexical-only hit holding one of a
  // long query's ten content words scores ~0.1 and can still be the answer. Only near-zero goes.
  minScore: 0.05,
  queryMaxChars: 1000,
  embedTimeoutMs: 5000,
  fusion: DEFAULT_FUSION_CONFIG,
  rerank: Object.freeze({
    enabled: true,
    window: 20,
    weight: 0.6,
    timeoutMs: 5000,
    unreturnedPenalty: 0.8,
    protectLexicalThreshold: 0.75,
    protectKeep: 0.95,
  }),
  scoring: Object.freeze({
    recencyWeight: 0.1,
    recencyHalfLifeDays: 14,
    importanceWeight: 0.3,
    // Off: access counts grow with every recall, so the same query twice gave different scores.
    accessWeight: 0,
    accessSaturation: 10,
    accessHalfLifeDays: 30,
    lengthAnchorChars: 500,
    lengthPenalty: 0.5,
    questionFactor: 0.8,
    dateWeight: 0.3,
  }),
  diversity: Object.freeze({ enabled: true, vectorThreshold: 0.92, tokenThreshold: 0.8 }),
});

/**
 * Validates a partial config (file or code) and merges it onto the defaults.
 * Throws InvalidArgumentError naming the offending field.
 */
export function resolveRecallConfig(options: { config?: RecallConfigInput; argument?: string } = {}): RecallConfig {
  const argument = options.argument ?? 'config';
  const parsed = recallConfigSchema.safeParse(options.config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue ? [argument, ...issue.path.map(String)].join('.') : argument;
    throw new InvalidArgumentError({
      argument: path,
      message: `Invalid recall setting ${path}: ${issue?.message ?? 'invalid value'}. Fix or remove it to use the default.`,
      cause: parsed.error,
    });
  }
  const input = parsed.data;
  const d = DEFAULT_RECALL_CONFIG;
  const config: RecallConfig = {
    mode: input.mode ?? d.mode,
    defaultLimit: input.defaultLimit ?? d.defaultLimit,
    maxLimit: input.maxLimit ?? d.maxLimit,
    candidatePoolMin: input.candidatePoolMin ?? d.candidatePoolMin,
    candidatePoolMultiplier: input.candidatePoolMultiplier ?? d.candidatePoolMultiplier,
    candidatePoolMax: input.candidatePoolMax ?? d.candidatePoolMax,
    minScore: input.minScore ?? d.minScore,
    queryMaxChars: input.queryMaxChars ?? d.queryMaxChars,
    embedTimeoutMs: input.embedTimeoutMs ?? d.embedTimeoutMs,
    fusion: { ...d.fusion, ...stripUndefined(input.fusion) },
    rerank: { ...d.rerank, ...stripUndefined(input.rerank) },
    scoring: { ...d.scoring, ...stripUndefined(input.scoring) },
    diversity: { ...d.diversity, ...stripUndefined(input.diversity) },
  };
  if (config.fusion.vectorCeiling <= config.fusion.vectorFloor) {
    throw new InvalidArgumentError({
      argument: `${argument}.fusion.vectorCeiling`,
      message: `fusion.vectorCeiling (${config.fusion.vectorCeiling}) must be greater than fusion.vectorFloor (${config.fusion.vectorFloor}).`,
    });
  }
  return config;
}

function stripUndefined<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
