/**
 * Provider sections of the config: one discriminated union on `provider` per pluggable kind, so
 * each provider accepts exactly its own settings. A section without `provider` takes the default
 * one. A provider is added by adding a member here and a case in its factory (src/wiring).
 */
import { z } from 'zod';
// The section's schema only (zod, no driver): the backend owns its settings, this file their place in the union.
import { postgresSectionSchema } from '../backends/store-postgres/config.js';

export const EMBEDDER_PROVIDERS = ['local', 'openai', 'transformers', 'none'] as const;
export const STORE_PROVIDERS = ['lancedb', 'postgres'] as const;
export const L0_PROVIDERS = ['jsonl', 'postgres'] as const;
export const CONVERSATION_INDEX_PROVIDERS = ['lancedb', 'postgres'] as const;
export const STATE_PROVIDERS = ['files', 'postgres'] as const;
export const LLM_PROVIDERS = ['none', 'openai', 'anthropic', 'claude-code'] as const;
export const HTTP_RERANK_PROVIDERS = ['jina', 'cohere', 'voyage', 'tei', 'siliconflow', 'generic'] as const;
export const RERANK_PROVIDERS = ['none', ...HTTP_RERANK_PROVIDERS] as const;
export const TASK_HINTS = ['none', 'jina', 'e5', 'nomic', 'prefix'] as const;
export const DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

export const positiveInt = z.number().int().positive();
export const nonEmpty = z.string().trim().min(1);
export const httpUrl = z.url({
  protocol: /^https?$/,
  error: 'expected an http(s) URL such as https://api.openai.com/v1 or http://localhost:11434/v1',
});
export const envVarName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the NAME of an environment variable (e.g. OPENAI_API_KEY), not the key itself');

/** The union, with `provider` filled in when the section leaves it out, and a readable error for an unknown one. */
function providerUnion<T extends readonly [z.ZodObject, ...z.ZodObject[]]>(options: {
  kind: string;
  defaultProvider: string;
  members: T;
  names: readonly string[];
}) {
  const union = z.discriminatedUnion('provider', options.members as unknown as [z.ZodObject, ...z.ZodObject[]], {
    error: (issue) => {
      const provider = (issue.input as { provider?: unknown } | undefined)?.provider;
      return `Unknown ${options.kind} provider ${JSON.stringify(provider)}: use ${options.names.join(', ')}`;
    },
  });
  return z.preprocess(
    (raw) => {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
      const section = raw as Record<string, unknown>;
      return section.provider === undefined ? { ...section, provider: options.defaultProvider } : section;
    },
    union as unknown as T[number],
  );
}

const openAIEmbedder = z.strictObject({
  provider: z.literal('openai'),
  model: nonEmpty.optional(),
  baseURL: httpUrl.optional(),
  /** Env var holding the API key. Defaults to OPENAI_API_KEY only for OpenAI's own endpoint, so a
   *  key is never sent to a self-hosted base URL unless named explicitly. */
  apiKeyEnv: envVarName.optional(),
  /** Number, numeric string, or env reference (`$EMBED_DIM`, `${EMBED_DIM:-1024}`). */
  dimensions: z.union([positiveInt, nonEmpty]).optional(),
  /** Send `dimensions` in requests (models that can shorten vectors). */
  sendDimensions: z.boolean().optional(),
  taskHints: z.enum(TASK_HINTS).optional(),
  queryPrefix: z.string().optional(),
  documentPrefix: z.string().optional(),
  queryTask: z.string().optional(),
  documentTask: z.string().optional(),
  batchSize: positiveInt.max(4096).optional(),
  timeoutMs: positiveInt.optional(),
});

const transformersEmbedder = z.strictObject({
  provider: z.literal('transformers'),
  model: nonEmpty.optional(),
  /** A local model folder (config.json, tokenizer.json, onnx/); else `<home>/models` holds downloads. */
  modelPath: nonEmpty.optional(),
  /** Fetch `model` from the Hugging Face hub into `<home>/models` on first use. */
  allowDownload: z.boolean().optional(),
  /** ONNX weights variant (`fp32` default, `q8` quantised, ...). */
  dtype: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4']).optional(),
  /** Pooling, when the model family's default (known-models.ts) is wrong for it. */
  pooling: z.enum(['mean', 'cls']).optional(),
  queryPrefix: z.string().optional(),
  documentPrefix: z.string().optional(),
  batchSize: positiveInt.max(4096).optional(),
});

function isOpenAIEndpoint(baseURL: string | undefined): boolean {
  return baseURL === undefined || new URL(baseURL).hostname === 'api.openai.com';
}

export const embedderSchema = providerUnion({
  kind: 'embedder',
  defaultProvider: 'local',
  names: EMBEDDER_PROVIDERS,
  members: [
    z.strictObject({ provider: z.literal('local') }),
    openAIEmbedder,
    transformersEmbedder,
    z.strictObject({ provider: z.literal('none') }),
  ],
}).transform((e) =>
  e.provider === 'openai' ? { ...e, apiKeyEnv: e.apiKeyEnv ?? (isOpenAIEndpoint(e.baseURL) ? DEFAULT_API_KEY_ENV : undefined) } : e,
);

export const storeSchema = providerUnion({
  kind: 'store',
  defaultProvider: 'lancedb',
  names: STORE_PROVIDERS,
  members: [
    z.strictObject({
      provider: z.literal('lancedb'),
      /** Default `<home>/store`; a relative path is resolved against the home directory. */
      path: nonEmpty.optional(),
      /** Row count above which the store builds an ANN index. */
      annThreshold: z.number().int().nonnegative().optional(),
      /** HNSW search breadth once the ANN index exists (default 100; raised to 2x the candidate pool when larger). */
      efSearch: z.number().int().min(10).max(10_000).optional(),
    }),
    // PostgreSQL + pgvector; the connection URL only from the environment variable `postgres.urlEnv` names.
    z.strictObject({
      provider: z.literal('postgres'),
      postgres: postgresSectionSchema.default(postgresSectionSchema.parse({})),
      annThreshold: z.number().int().nonnegative().optional(),
      efSearch: z.number().int().min(10).max(10_000).optional(),
    }),
  ],
});

/**
 * The L0 conversation log. `jsonl`: daily files under `<home>/conversations` (this machine's);
 * `postgres`: one table in the store's database (its section unless one is given here), shared
 * by every machine; `key` names the log there (deployments sharing a schema keep theirs apart).
 */
export const l0Schema = providerUnion({
  kind: 'L0 log',
  defaultProvider: 'jsonl',
  names: L0_PROVIDERS,
  members: [
    z.strictObject({ provider: z.literal('jsonl') }),
    z.strictObject({
      provider: z.literal('postgres'),
      postgres: postgresSectionSchema.optional(),
      key: z
        .string()
        .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'expected a short name such as main')
        .default('main'),
    }),
  ],
});

/** The searchable conversation index (derived from the L0 log, rebuilt from it when needed). */
export const conversationsSchema = providerUnion({
  kind: 'conversation index',
  defaultProvider: 'lancedb',
  names: CONVERSATION_INDEX_PROVIDERS,
  members: [
    z.strictObject({
      provider: z.literal('lancedb'),
      /** Default `<home>/conversations/index`; a relative path is resolved against the home directory. */
      path: nonEmpty.optional(),
    }),
    // PostgreSQL + pgvector. Without its own section it uses the store's (same database, schema and pool).
    z.strictObject({
      provider: z.literal('postgres'),
      postgres: postgresSectionSchema.optional(),
    }),
  ],
});

/**
 * The engine's shared state besides memories and history: distill progress (and, as they move,
 * summaries, journal, usage, scenes and persona). `files`: under the home; `postgres`: tables in
 * the store's database (its section, unless one is given here), shared by every machine.
 */
export const stateSchema = providerUnion({
  kind: 'state',
  defaultProvider: 'files',
  names: STATE_PROVIDERS,
  members: [
    z.strictObject({ provider: z.literal('files') }),
    z.strictObject({ provider: z.literal('postgres'), postgres: postgresSectionSchema.optional() }),
  ],
});

/**
 * Sections that name no provider follow the store: with `store.provider: "postgres"` the L0 log,
 * the conversation index and the shared state go to the same database (a shared service keeps
 * nothing searchable or shared on one machine's disk); otherwise they stay under the home.
 * Applied to the raw config before parsing.
 */
export function withConversationsDefault(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  let config = raw as Record<string, unknown>;
  const store = config.store as { provider?: unknown } | undefined;
  if (store?.provider !== 'postgres') return raw;
  for (const key of ['l0', 'conversations', 'state'] as const) {
    const section = config[key] ?? {};
    if (typeof section !== 'object' || section === null || Array.isArray(section)) continue;
    if ((section as { provider?: unknown }).provider !== undefined) continue;
    config = { ...config, [key]: { ...section, provider: 'postgres' } };
  }
  return config;
}

const rerankFields = {
  model: nonEmpty.optional(),
  baseURL: httpUrl.optional(),
  /** Defaults per provider (JINA_API_KEY, COHERE_API_KEY, ...). */
  apiKeyEnv: envVarName.optional(),
  timeoutMs: positiveInt.optional(),
};

export const rerankSchema = providerUnion({
  kind: 'rerank',
  defaultProvider: 'none',
  names: RERANK_PROVIDERS,
  // `none` accepts the other settings (ignored), so switching the provider off keeps the file valid.
  members: [
    z.strictObject({ provider: z.literal('none'), ...rerankFields }),
    z.strictObject({ provider: z.enum(HTTP_RERANK_PROVIDERS), ...rerankFields }),
  ],
});

const llmFields = {
  baseURL: httpUrl.optional(),
  model: nonEmpty.optional(),
  apiKeyEnv: envVarName.optional(),
  timeoutMs: positiveInt.optional(),
  maxConcurrency: positiveInt.optional(),
  maxRetries: z.number().int().min(0).optional(),
  /** USD per million tokens, by model id, for cost accounting in `strata stats`. */
  prices: z.record(z.string(), z.strictObject({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) })).optional(),
};
const jsonMode = z.enum(['json_schema', 'json_object', 'none']).optional();

export const llmSchema = providerUnion({
  kind: 'LLM',
  defaultProvider: 'none',
  names: LLM_PROVIDERS,
  members: [
    // `none` keeps the other settings valid (ignored): STRATA_LLM_PROVIDER=none switches a configured LLM off.
    z.strictObject({ provider: z.literal('none'), ...llmFields, jsonMode, command: nonEmpty.optional() }),
    z.strictObject({ provider: z.literal('openai'), ...llmFields, jsonMode }),
    z.strictObject({ provider: z.literal('anthropic'), ...llmFields }),
    // The user's own `claude` CLI, headless; `command` names it (default `claude` on PATH), haiku by default.
    z.strictObject({ provider: z.literal('claude-code'), ...llmFields, command: nonEmpty.optional() }),
  ],
}).refine((l) => l.provider === 'none' || l.provider === 'claude-code' || l.model !== undefined, {
  message: 'llm.model is required when llm.provider is set (config llm.model or STRATA_LLM_MODEL)',
  path: ['model'],
});
