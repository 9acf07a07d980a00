/**
 * The one place where configuration meets concrete backends. The core engine only knows the
 * spec interfaces; everything LanceDB-, model- or HTTP-specific is chosen here.
 */
import type { EmbedderV1 } from './spec/embedder.js';
import type { MemoryStoreV1 } from './spec/memory-store.js';
import type { RerankerV1 } from './spec/reranker.js';
import { MemoryEngine } from './core/engine/memory-engine.js';
import type { EngineContext } from './core/engine/context.js';
import { createEmbeddingService } from './core/embedding/embedding-service.js';
import { loadConfig, type LoadedConfig, type StrataConfigOverrides } from './config/load.js';
import type { StrataConfig } from './config/schema.js';
import { createLanceDbStore } from './backends/store-lancedb/index.js';
import { createLocalEmbedder } from './backends/embedder-local/index.js';
import { createOpenAIEmbedder } from './backends/embedder-openai/index.js';
import { createNoneEmbedder } from './backends/embedder-none/index.js';
import { createHttpReranker } from './backends/reranker-http/index.js';
import { join } from 'node:path';

export interface StrataOpenOptions {
  /** Strata home; default `$STRATA_HOME`, else `~/.strata`. */
  home?: string;
  /** Deep-merged over `<home>/config.json` and the environment, then validated. */
  overrides?: StrataConfigOverrides;
  /** Inject a ready embedder (tests, custom providers) instead of the configured one. */
  embedder?: EmbedderV1;
  reranker?: RerankerV1;
  /** Used by `reembed`: open a store recorded with another embedder without failing. */
  allowEmbedderMismatch?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function createEmbedderFromConfig(config: StrataConfig, env: NodeJS.ProcessEnv = process.env): EmbedderV1 {
  const e = config.embedder;
  switch (e.provider) {
    case 'none':
      return createNoneEmbedder();
    case 'openai':
      return createOpenAIEmbedder({
        baseURL: e.baseURL ?? 'https://api.openai.com/v1',
        model: e.model ?? 'text-embedding-3-small',
        apiKeyEnv: e.apiKeyEnv,
        dimensions: e.dimensions,
        sendDimensions: e.sendDimensions,
        taskHints: e.taskHints,
        batchSize: e.batchSize,
        timeoutMs: e.timeoutMs,
        env,
      });
    case 'local':
      return createLocalEmbedder();
  }
}

export function createRerankerFromConfig(config: StrataConfig): RerankerV1 | undefined {
  const r = config.rerank;
  if (!r || r.provider === 'none') return undefined;
  return createHttpReranker({ provider: r.provider, baseURL: r.baseURL, model: r.model, apiKeyEnv: r.apiKeyEnv, timeoutMs: r.timeoutMs });
}

export function createStoreFromConfig(loaded: LoadedConfig): MemoryStoreV1 {
  const s = loaded.config.store;
  return createLanceDbStore({
    path: s.path ?? join(loaded.home, 'store'),
    annThreshold: s.annThreshold,
    lockStaleMs: loaded.config.lock?.staleMs,
  });
}

/** The library entry point: `const strata = await Strata.open({ home })`. */
export class Strata extends MemoryEngine {
  readonly home: string;
  readonly config: StrataConfig;

  private constructor(ctx: EngineContext, loaded: LoadedConfig) {
    super(ctx, loaded.config.recall);
    this.home = loaded.home;
    this.config = loaded.config;
  }

  static async open(options: StrataOpenOptions = {}): Promise<Strata> {
    const loaded = await loadConfig({ home: options.home, overrides: options.overrides, env: options.env });
    const embedder = options.embedder ?? createEmbedderFromConfig(loaded.config, options.env);
    // A remote embedder with no configured length learns it from one probe call.
    const dimensions = 'resolveDimensions' in embedder && typeof embedder.resolveDimensions === 'function'
      ? await (embedder.resolveDimensions as () => Promise<number>)()
      : embedder.dimensions;
    const store = createStoreFromConfig(loaded);
    const ctx: EngineContext = {
      store,
      embeddings: createEmbeddingService({ embedder }),
      embedderId: embedder.id,
      dimensions,
      reranker: options.reranker ?? createRerankerFromConfig(loaded.config),
      write: {
        redactSecrets: loaded.config.write.redactSecrets,
        maxChars: loaded.config.write.maxChars,
        nearDuplicateThreshold: loaded.config.write.nearDuplicateThreshold,
      },
      now: () => new Date(),
    };
    if (!options.allowEmbedderMismatch) {
      try {
        await MemoryEngine.checkEmbedder(ctx);
      } catch (error) {
        await store.close().catch(() => undefined);
        throw error;
      }
    }
    return new Strata(ctx, loaded);
  }
}
