/**
 * One factory per pluggable kind: the configured provider's module is imported on demand, so a
 * backend that is not configured is never loaded (LanceDB's native module, TF.js, ...). These are
 * the only functions that know concrete backends; `Strata.open` calls them for the parts the
 * caller did not inject.
 */
import type { StrataConfig } from '../config/schema.js';
import { createLlmClient, type LlmClient } from '../core/llm/index.js';
import { ConfigError } from '../errors/index.js';
import type { ConversationIndexV2 } from '../spec/conversation-index.js';
import type { DistillProgressV1 } from '../spec/distill-progress.js';
import type { HistoryLogV1 } from '../spec/history-log.js';
import type { JournalStoreV1 } from '../spec/journal-store.js';
import type { SummaryStoreV1 } from '../spec/summary-store.js';
import type { LayerStoreV1 } from '../spec/layer-store.js';
import type { UsageLogV1 } from '../spec/usage-log.js';
import type { EmbedderV1 } from '../spec/embedder.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import type { MemoryStoreV1 } from '../spec/memory-store.js';
import type { RerankerV1 } from '../spec/reranker.js';
import type { LlmV1 } from '../spec/llm.js';
import { DEFAULT_POSTGRES_URL_ENV } from '../backends/store-postgres/config.js';
import { hostname } from 'node:os';
import { join } from 'node:path';

type Env = NodeJS.ProcessEnv;

function unreachable(kind: string, provider: never): never {
  throw new ConfigError({ field: `${kind}.provider`, message: `Unknown ${kind} provider ${JSON.stringify(provider)}.` });
}

/** `postgres` reads its connection URL from `env[store.postgres.urlEnv]` (never from the file). */
export async function createStoreFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<MemoryStoreV1> {
  const s = options.config.store;
  switch (s.provider) {
    case 'lancedb': {
      const { createLanceDbStore } = await import('../backends/store-lancedb/index.js');
      return createLanceDbStore({
        path: s.path ?? join(options.home, 'store'),
        annThreshold: s.annThreshold,
        efSearch: s.efSearch,
        lockStaleMs: options.config.lock?.staleMs,
      });
    }
    case 'postgres': {
      const { createPostgresStoreFromConfig } = await import('../backends/store-postgres/index.js');
      return createPostgresStoreFromConfig({ section: s.postgres, env: options.env, efSearch: s.efSearch, annThreshold: s.annThreshold });
    }
    default:
      return unreachable('store', s);
  }
}

/** `home` is where the `transformers` embedder keeps downloaded models (`<home>/models`). */
export async function createEmbedderFromConfig(options: { config: StrataConfig; env?: Env; home?: string }): Promise<EmbedderV1> {
  const e = options.config.embedder;
  switch (e.provider) {
    case 'none':
      return (await import('../backends/embedder-none/index.js')).createNoneEmbedder();
    case 'local':
      return (await import('../backends/embedder-local/index.js')).createLocalEmbedder();
    case 'openai':
      return (await import('../backends/embedder-openai/index.js')).createOpenAIEmbedder({
        baseURL: e.baseURL ?? 'https://api.openai.com/v1',
        model: e.model ?? 'text-embedding-3-small',
        apiKeyEnv: e.apiKeyEnv,
        dimensions: e.dimensions,
        sendDimensions: e.sendDimensions,
        taskHints: e.taskHints,
        queryPrefix: e.queryPrefix,
        documentPrefix: e.documentPrefix,
        queryTask: e.queryTask,
        documentTask: e.documentTask,
        batchSize: e.batchSize,
        timeoutMs: e.timeoutMs,
        env: options.env,
      });
    case 'transformers':
      return (await import('../backends/embedder-transformers/index.js')).createTransformersEmbedder({
        model: e.model ?? 'Xenova/bge-small-en-v1.5',
        modelPath: e.modelPath,
        cacheDir: options.home ? join(options.home, 'models') : undefined,
        allowDownload: e.allowDownload,
        dtype: e.dtype,
        pooling: e.pooling,
        queryPrefix: e.queryPrefix,
        documentPrefix: e.documentPrefix,
        batchSize: e.batchSize,
      });
    default:
      return unreachable('embedder', e);
  }
}

export async function createRerankerFromConfig(options: { config: StrataConfig; env?: Env }): Promise<RerankerV1 | undefined> {
  const r = options.config.rerank;
  if (r.provider === 'none') return undefined;
  const { createHttpReranker } = await import('../backends/reranker-http/index.js');
  return createHttpReranker({
    provider: r.provider,
    baseURL: r.baseURL,
    model: r.model,
    apiKeyEnv: r.apiKeyEnv,
    timeoutMs: r.timeoutMs,
    env: options.env,
  });
}

/**
 * The configured LLM (config `llm`; STRATA_LLM_* are applied by the config loader), wrapped in the
 * client that retries, limits concurrency and logs usage. Undefined when none is configured:
 * distillation then falls back to rule-based capture.
 */
export async function createLlmFromConfig(options: {
  config: StrataConfig;
  home: string;
  env?: Env;
  /** Where calls are logged; default the files under the home. */
  usageLog?: UsageLogV1;
}): Promise<LlmClient | undefined> {
  const cfg = options.config.llm;
  if (cfg.provider === 'none') return undefined;
  const client = (llm: LlmV1) =>
    createLlmClient({
      llm,
      usageLog: options.usageLog ?? { home: options.home },
      maxConcurrency: cfg.maxConcurrency,
      maxRetries: cfg.maxRetries,
      prices: cfg.prices,
    });
  if (cfg.provider === 'claude-code') {
    const { createClaudeCodeLlm } = await import('../backends/llm-claude-code/index.js');
    return client(createClaudeCodeLlm({ command: cfg.command, model: cfg.model, timeoutMs: cfg.timeoutMs, env: options.env }));
  }
  if (!cfg.model) {
    throw new ConfigError({
      field: 'llm.model',
      message: `The LLM provider is ${cfg.provider} but no model is set: set llm.model in config.json or STRATA_LLM_MODEL.`,
    });
  }
  const common = { baseURL: cfg.baseURL, model: cfg.model, apiKeyEnv: cfg.apiKeyEnv, timeoutMs: cfg.timeoutMs };
  let llm;
  switch (cfg.provider) {
    case 'openai':
      llm = (await import('../backends/llm-openai/index.js')).createOpenAIChat({ ...common, jsonMode: cfg.jsonMode });
      break;
    case 'anthropic':
      llm = (await import('../backends/llm-anthropic/index.js')).createAnthropic(common);
      break;
    default:
      return unreachable('llm', cfg);
  }
  return client(llm);
}

/** `postgres` without a section of its own uses `store.postgres` when the store is on Postgres (one database config). */
export async function createL0LogFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<L0LogV1> {
  const l = options.config.l0;
  switch (l.provider) {
    case 'jsonl':
      return (await import('../backends/l0-jsonl/index.js')).createJsonlL0Log({ home: options.home, timeZone: options.config.timezone });
    case 'postgres': {
      const { createPostgresL0Log } = await import('../backends/l0-postgres/index.js');
      return createPostgresL0Log({ ...postgresOf(options.config, l.postgres, 'l0', options.env), logKey: l.key });
    }
    default:
      return unreachable('l0', l);
  }
}

/** `postgres` without a section of its own uses `store.postgres` when the store is on Postgres (one database config). */
export async function createConversationIndexFromConfig(options: {
  config: StrataConfig;
  home: string;
  env?: Env;
}): Promise<ConversationIndexV2> {
  const c = options.config.conversations;
  switch (c.provider) {
    case 'lancedb': {
      const { createLanceConversationIndex } = await import('../backends/conversation-lancedb/index.js');
      return createLanceConversationIndex({ dir: c.path ?? join(options.home, 'conversations', 'index') });
    }
    case 'postgres': {
      const { createPostgresConversationIndexFromConfig } = await import('../backends/conversation-postgres/index.js');
      const store = options.config.store;
      const section = c.postgres ?? (store.provider === 'postgres' ? store.postgres : undefined);
      // The watermark is a position in one L0 log: per host and home for a JSONL log, the shared log's key on Postgres.
      return createPostgresConversationIndexFromConfig({
        section,
        env: options.env,
        field: c.postgres ? 'conversations.postgres.urlEnv' : 'store.postgres.urlEnv',
        watermarkKey: l0LogKey({ config: options.config, home: options.home }),
      });
    }
    default:
      return unreachable('conversations', c);
  }
}

/**
 * The memory history log follows the store: beside a PostgreSQL store it is a table in the same
 * schema (so every machine on the service sees every change); otherwise JSONL files under the home.
 */
export async function createHistoryLogFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<HistoryLogV1> {
  const s = options.config.store;
  switch (s.provider) {
    case 'lancedb':
      return new (await import('../core/history/jsonl-storage.js')).JsonlHistoryStorage({ home: options.home });
    case 'postgres': {
      const url = (options.env ?? process.env)[s.postgres.urlEnv];
      if (!url)
        throw new ConfigError({
          field: 'store.postgres.urlEnv',
          message: `store.provider is "postgres" but ${s.postgres.urlEnv} is not set: export ${s.postgres.urlEnv}=postgresql://user:password@host:5432/database (the URL stays out of config.json).`,
        });
      const { createPostgresHistoryLog } = await import('../backends/history-postgres/index.js');
      return createPostgresHistoryLog({ url, schema: s.postgres.schema, poolSize: s.postgres.poolSize });
    }
    default:
      return unreachable('store', s);
  }
}

/**
 * Which L0 log this engine reads: its key binds state kept about the log (distill progress, the
 * conversation index's watermark) to it. A JSONL log lives on one machine in one home.
 */
export function l0LogKey(options: { config: StrataConfig; home: string }): string {
  const l = options.config.l0;
  if (l.provider === 'postgres') return `postgres:${postgresSectionOf(options.config, l.postgres).schema}:${l.key}`;
  return `${hostname()}:${options.home}`;
}

type PostgresSection = NonNullable<Extract<StrataConfig['state'], { provider: 'postgres' }>['postgres']>;

/** A component's own Postgres section, else the store's when the store is on Postgres, else the defaults. */
function postgresSectionOf(config: StrataConfig, own: PostgresSection | undefined): { urlEnv: string; schema: string; poolSize: number } {
  const section = own ?? (config.store.provider === 'postgres' ? config.store.postgres : undefined);
  return { urlEnv: section?.urlEnv ?? DEFAULT_POSTGRES_URL_ENV, schema: section?.schema ?? 'strata', poolSize: section?.poolSize ?? 10 };
}

/** Connection settings of a component on Postgres (`kind`: its config section), with the URL read from the environment. */
function postgresOf(
  config: StrataConfig,
  own: PostgresSection | undefined,
  kind: 'l0' | 'state',
  env: Env | undefined,
): { url: string; schema: string; poolSize: number } {
  const { urlEnv, schema, poolSize } = postgresSectionOf(config, own);
  const url = (env ?? process.env)[urlEnv];
  if (!url)
    throw new ConfigError({
      field: own ? `${kind}.postgres.urlEnv` : 'store.postgres.urlEnv',
      message: `${kind}.provider is "postgres" but ${urlEnv} is not set: export ${urlEnv}=postgresql://user:password@host:5432/database (the URL stays out of config.json).`,
    });
  return { url, schema, poolSize };
}

/** Distill progress (cursor, budget window, run lock) of the L0 log `logKey`: files under the home, or Postgres (config `state`). */
export async function createDistillProgressFromConfig(options: {
  config: StrataConfig;
  home: string;
  env?: Env;
  logKey: string;
}): Promise<DistillProgressV1> {
  const st = options.config.state;
  switch (st.provider) {
    case 'files':
      return new (await import('../core/distill/file-progress.js')).FileDistillProgress({ home: options.home });
    case 'postgres': {
      const { createPostgresDistillProgress } = await import('../backends/distill-postgres/index.js');
      return createPostgresDistillProgress({ ...postgresOf(options.config, st.postgres, 'state', options.env), logKey: options.logKey });
    }
    default:
      return unreachable('state', st);
  }
}

/** Hierarchical summaries: files under the home, or Postgres (config `state`). */
export async function createSummaryStoreFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<SummaryStoreV1> {
  const st = options.config.state;
  switch (st.provider) {
    case 'files':
      return new (await import('../core/summaries/file-store.js')).FileSummaryStore({ home: options.home });
    case 'postgres': {
      const { createPostgresSummaryStore } = await import('../backends/summaries-postgres/index.js');
      return createPostgresSummaryStore(postgresOf(options.config, st.postgres, 'state', options.env));
    }
    default:
      return unreachable('state', st);
  }
}

/** Scenes, persona and organiser checkpoint: files under the home, or Postgres (config `state`). */
export async function createLayerStoreFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<LayerStoreV1> {
  const st = options.config.state;
  switch (st.provider) {
    case 'files':
      return new (await import('../core/layers/file-store.js')).FileLayerStore({ home: options.home });
    case 'postgres': {
      const { createPostgresLayerStore } = await import('../backends/layers-postgres/index.js');
      return createPostgresLayerStore(postgresOf(options.config, st.postgres, 'state', options.env));
    }
    default:
      return unreachable('state', st);
  }
}

/** The daily journal (day logs, pending flushes, compiled knowledge, their state): files under the home, or Postgres (config `state`). */
export async function createJournalStoreFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<JournalStoreV1> {
  const st = options.config.state;
  switch (st.provider) {
    case 'files':
      return new (await import('../core/journal/file-store.js')).FileJournalStore({ home: options.home });
    case 'postgres': {
      const { createPostgresJournalStore } = await import('../backends/journal-postgres/index.js');
      return createPostgresJournalStore(postgresOf(options.config, st.postgres, 'state', options.env));
    }
    default:
      return unreachable('state', st);
  }
}

/** The LLM usage log: monthly files under the home, or Postgres (config `state`). */
export async function createUsageLogFromConfig(options: { config: StrataConfig; home: string; env?: Env }): Promise<UsageLogV1> {
  const st = options.config.state;
  switch (st.provider) {
    case 'files':
      return new (await import('../core/llm/usage-log.js')).FileUsageLog({ home: options.home });
    case 'postgres': {
      const { createPostgresUsageLog } = await import('../backends/usage-postgres/index.js');
      return createPostgresUsageLog(postgresOf(options.config, st.postgres, 'state', options.env));
    }
    default:
      return unreachable('state', st);
  }
}
