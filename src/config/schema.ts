/**
 * Schema of `<home>/config.json`. Every field has a default, so a missing file or `{}` is a valid
 * configuration. Objects are strict: a misspelt key is an error, not a silently ignored setting.
 * Secrets never live in this file; remote providers name an environment variable (`apiKeyEnv`).
 */
import { z } from 'zod';
import { DEFAULT_MAX_CHARS } from '../core/write/normalize.js';
import { isValidScope } from '../core/scope.js';
import { recallConfigSchema, resolveRecallConfig } from '../core/recall/config.js';
import { StrataError } from '../errors/index.js';
import { AUTO_ORGANIZE_DEFAULTS, ORGANIZE_DEFAULTS } from '../core/layers/defaults.js';
import {
  conversationsSchema,
  embedderSchema,
  l0Schema,
  llmSchema,
  positiveInt,
  rerankSchema,
  stateSchema,
  storeSchema,
} from './providers.js';
import { isValidTimeZone, systemTimeZone } from '../util/time-zone.js';

export {
  CONVERSATION_INDEX_PROVIDERS,
  DEFAULT_API_KEY_ENV,
  EMBEDDER_PROVIDERS,
  L0_PROVIDERS,
  LLM_PROVIDERS,
  RERANK_PROVIDERS,
  STORE_PROVIDERS,
  STATE_PROVIDERS,
  TASK_HINTS,
} from './providers.js';

// Recall settings belong to the recall pipeline; the file holds any subset and the defaults are
// filled in here so `config.recall` is always complete.
const recallSchema = recallConfigSchema.prefault({}).transform((input, ctx) => {
  try {
    return resolveRecallConfig({ config: input, argument: 'recall' });
  } catch (error) {
    if (!StrataError.isInstance(error)) throw error;
    const argument = typeof error.details?.argument === 'string' ? error.details.argument : 'recall';
    ctx.issues.push({ code: 'custom', message: error.message, input, path: argument.split('.').slice(1) });
    return z.NEVER;
  }
});

const writeSchema = z.strictObject({
  redactSecrets: z.boolean().default(true),
  maxChars: positiveInt.max(1_000_000).default(DEFAULT_MAX_CHARS),
  /** Cosine similarity at or above which a new memory counts as a near-duplicate of an existing one. */
  nearDuplicateThreshold: z.number().min(0).max(1).default(0.95),
});

const scopeString = z.string().refine(isValidScope, {
  message: 'expected a scope: global, agent:<id>, user:<id>, project:<id>, session:<key> or custom:<name>',
});
const agentId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@\-/:]{0,127}$/, 'expected an agent id (letters, digits and . _ @ - / :)');

const scopesSchema = z.strictObject({
  /** Extra scopes an agent reads besides `global` and `agent:<id>`, e.g. `{ "coder": ["project:strata"] }`. */
  agentGrants: z.record(agentId, z.array(scopeString)).default({}),
  defaultAgent: agentId.optional(),
});

const lockSchema = z.strictObject({
  staleMs: z.number().int().min(2000).optional(),
  timeoutMs: z.number().int().nonnegative().optional(),
});

const distillSchema = z.strictObject({
  minConfidence: z.number().min(0).max(1).default(0.5),
  chunkTokens: positiveInt.default(3000),
  ruleScope: z.enum(['agent', 'global']).default('agent'),
  caps: z
    .strictObject({
      maxMemoriesPerRun: positiveInt.default(50),
      maxMemoriesPerAgent: positiveInt.default(20),
      maxMessagesPerRun: positiveInt.default(2000),
      maxPerTurn: positiveInt.default(3),
    })
    .prefault({}),
  budget: z
    .strictObject({
      maxCallsPerRun: positiveInt.default(200),
      maxTokensPerRun: positiveInt.default(400_000),
      maxCallsPerHour: positiveInt.default(600),
      maxTokensPerHour: positiveInt.default(1_200_000),
    })
    .prefault({}),
  scheduler: z
    .strictObject({ everyMessages: positiveInt.default(20), idleMs: positiveInt.default(300_000), pollMs: positiveInt.default(10_000) })
    .prefault({}),
});

const nonNegativeInt = z.number().int().nonnegative();

// L2 scenes / L3 persona / organiser. Defaults are the organiser's own, so an empty section changes nothing.
const layersSchema = z.strictObject({
  scenes: z
    .strictObject({
      /** Most scene files per agent; the organiser merges near the limit. */
      limit: positiveInt.max(200).default(ORGANIZE_DEFAULTS.maxScenes),
      /** Scene-folder backups kept (one per organiser run). */
      backups: positiveInt.max(100).default(ORGANIZE_DEFAULTS.backupKeep),
      /** Model turns per organiser run. */
      maxTurns: positiveInt.max(500).default(ORGANIZE_DEFAULTS.maxTurns),
      /** Wall time of one organiser run. */
      timeoutMs: positiveInt.min(1000).default(ORGANIZE_DEFAULTS.timeoutMs),
      /** New memories folded in per run (the rest wait for the next run). */
      maxMemoriesPerRun: positiveInt.max(1000).default(ORGANIZE_DEFAULTS.maxMemoriesPerRun),
    })
    .prefault({}),
  persona: z
    .strictObject({
      /** Regenerate the persona after this many organised memories; 0 = only when the organiser asks. */
      regenerateEveryMemories: nonNegativeInt.default(ORGANIZE_DEFAULTS.personaEveryN),
      /** Persona backups kept (one per rewrite). */
      backups: positiveInt.max(100).default(ORGANIZE_DEFAULTS.personaBackupKeep),
    })
    .prefault({}),
  organizer: z
    .strictObject({
      /** Run the organiser from the background worker (needs an LLM); false = only `strata organize`. */
      auto: z.boolean().default(AUTO_ORGANIZE_DEFAULTS.auto),
      /** New memories since the last run that make an automatic run due. */
      everyMemories: positiveInt.default(AUTO_ORGANIZE_DEFAULTS.everyMemories),
      /** Least time between two automatic runs of one agent. */
      minIntervalMs: nonNegativeInt.default(AUTO_ORGANIZE_DEFAULTS.minIntervalMs),
    })
    .prefault({}),
});

// Hierarchical summaries of long sessions (read by the summaries worker; its resolver has the same minimums).
const summariesSchema = z.strictObject({
  /** Messages further than this many tokens behind the latest are summarised (0: all of them). */
  boundaryTokens: nonNegativeInt.default(30_000),
  /** Size of one level-1 chunk. */
  chunkTokens: positiveInt.default(6000),
  /** Target length of one summary. */
  summaryTokens: positiveInt.default(1000),
  /** Unmerged summaries of one level that merge into one at the next level. */
  mergeFanIn: z.number().int().min(2).max(64).default(6),
  /** Highest summary level (at most 3). */
  maxLevel: z.number().int().min(1).max(3).default(3),
  /** How often the periodic worker looks for work. */
  intervalMs: positiveInt.default(600_000),
});

// The daily journal (read by the journal module).
const journalSchema = z.strictObject({
  /** A second flush of the same session within this window is skipped. */
  dedupeWindowMs: nonNegativeInt.default(60_000),
  /** LLM attempts per flush before its input is kept for a later retry. */
  attempts: z.number().int().min(1).max(10).default(3),
  /** Least time between two `journal compile` runs. */
  compileMinIntervalMs: nonNegativeInt.default(3_600_000),
  /** Largest input (transcript or logs) handed to the model in one call. */
  maxInputTokens: positiveInt.min(500).default(12_000),
});

// Remote mode: hosts use a `strata serve` service instead of a local store (STRATA_URL / --url win).
const remoteSchema = z.strictObject({
  /** The service's base URL, e.g. https://memory.internal (the API is under /api/v1). */
  url: z.string().url().optional(),
  /** The NAME of the environment variable holding this machine's bearer token (never the token). */
  tokenEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'expected an environment variable name' })
    .default('STRATA_TOKEN'),
  /** Per-call time limit. */
  timeoutMs: positiveInt.default(30_000),
});

export const strataConfigSchema = z.strictObject({
  /** Lets editors validate the file; ignored by Strata. */
  $schema: z.string().optional(),
  /** IANA zone naming the calendar days of the L0 day files and the journal (default: the system's). */
  timezone: z
    .string()
    .trim()
    .refine(isValidTimeZone, { message: 'expected an IANA time zone such as America/Los_Angeles, Europe/Berlin or UTC' })
    .default(() => systemTimeZone()),
  embedder: embedderSchema.prefault({}),
  store: storeSchema.prefault({}),
  l0: l0Schema.prefault({}),
  conversations: conversationsSchema.prefault({}),
  state: stateSchema.prefault({}),
  recall: recallSchema,
  rerank: rerankSchema.prefault({}),
  write: writeSchema.prefault({}),
  scopes: scopesSchema.prefault({}),
  lock: lockSchema.prefault({}),
  llm: llmSchema.prefault({}),
  distill: distillSchema.prefault({}),
  layers: layersSchema.prefault({}),
  summaries: summariesSchema.prefault({}),
  journal: journalSchema.prefault({}),
  remote: remoteSchema.prefault({}),
});

/** The file's shape as written (everything optional). */
export type StrataConfigInput = z.input<typeof strataConfigSchema>;
/** The validated configuration with defaults applied. `store.path` is absolute after `loadConfig`. */
export type StrataConfig = z.output<typeof strataConfigSchema>;
export type LayersConfig = StrataConfig['layers'];
export type SummariesConfig = StrataConfig['summaries'];
export type JournalConfig = StrataConfig['journal'];

/** What `strata init` writes: the main choices spelt out, everything else left to the defaults. */
export const DEFAULT_CONFIG_FILE: StrataConfigInput = {
  embedder: { provider: 'local' },
  store: { provider: 'lancedb' },
  l0: { provider: 'jsonl' },
  conversations: { provider: 'lancedb' },
  recall: {},
  rerank: { provider: 'none' },
  write: { redactSecrets: true, maxChars: DEFAULT_MAX_CHARS, nearDuplicateThreshold: 0.95 },
  scopes: { agentGrants: {} },
  // Spelt out so the knobs of the background workers are visible in the file.
  layers: layersSchema.parse({}),
  summaries: summariesSchema.parse({}),
  journal: journalSchema.parse({}),
};

const SECRET_KEY =
  /^(?:api[_-]?key|apikey|key|token|access[_-]?token|auth[_-]?token|bearer|secret|client[_-]?secret|secret[_-]?key|password|passwd)$/i;

/**
 * Finds keys that would hold a secret (`apiKey`, `token`, `secret`, ...) anywhere in a raw config
 * object, as dotted paths. Keys of `scopes.agentGrants` are agent ids and are not checked.
 */
export function findSecretKeys(value: unknown, path: string[] = []): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  if (path.join('.') === 'scopes.agentGrants') return [];
  const found: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) found.push([...path, key].join('.'));
    found.push(...findSecretKeys(child, [...path, key]));
  }
  return found;
}

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
}

/** The object shape(s) behind wrappers (defaults, pipes, transforms); a union gives all its members' keys. */
function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  const def = schema?._zod.def as SchemaDef | undefined;
  if (!def) return undefined;
  if (def.shape) return def.shape;
  if (def.options) return Object.assign({}, ...def.options.map((o) => shapeOf(o) ?? {})) as Record<string, z.ZodType>;
  if (def.innerType) return shapeOf(def.innerType);
  return shapeOf(def.in) ?? shapeOf(def.out);
}

/** The keys a config object accepts at `path` (for "did you mean" hints). */
export function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType | undefined = strataConfigSchema;
  for (let depth = 0; ; depth++) {
    const shape = shapeOf(schema);
    if (!shape) return [];
    if (depth === path.length) return Object.keys(shape);
    schema = shape[String(path[depth])];
  }
}

/** The LLM provider in effect (`STRATA_LLM_PROVIDER` is already applied by the config loader). */
export function llmProviderOf(options: { config: Pick<StrataConfig, 'llm'> }): StrataConfig['llm']['provider'] {
  return options.config.llm.provider;
}
