/**
 * `Strata.open`'s wiring: load and validate the config, then build every part the caller did not
 * inject through its factory. The conversation index is built on first use only (most commands
 * never search conversations), everything else here.
 */
import { loadConfig, type LoadedConfig, type StrataConfigOverrides } from '../config/load.js';
import type { BuildTurnDocument } from '../core/conversations/index.js';
import { createEmbeddingService } from '../core/embedding/embedding-service.js';
import type { EngineContext } from '../core/engine/context.js';
import { MemoryEngine } from '../core/engine/memory-engine.js';
import { HistoryLog } from '../core/history/index.js';
import { redactingL0Log } from '../core/write/redacting-l0-log.js';
import { createLlmClient, type LlmClient } from '../core/llm/index.js';
import type { ConversationIndexV2 } from '../spec/conversation-index.js';
import type { DistillProgressV1 } from '../spec/distill-progress.js';
import type { EmbedderV1 } from '../spec/embedder.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import type { LlmV1 } from '../spec/llm.js';
import type { AgentRunner } from '../core/layers/agent-loop.js';
import type { MemoryStoreV1 } from '../spec/memory-store.js';
import type { RerankerV1 } from '../spec/reranker.js';
import type { JournalStoreV1 } from '../spec/journal-store.js';
import type { SummaryStoreV1 } from '../spec/summary-store.js';
import type { UsageLogV1 } from '../spec/usage-log.js';
import type { LayerStoreV1 } from '../spec/layer-store.js';
import {
  createConversationIndexFromConfig,
  createDistillProgressFromConfig,
  createEmbedderFromConfig,
  createHistoryLogFromConfig,
  createJournalStoreFromConfig,
  createL0LogFromConfig,
  createLlmFromConfig,
  createRerankerFromConfig,
  createStoreFromConfig,
  createSummaryStoreFromConfig,
  createUsageLogFromConfig,
  createLayerStoreFromConfig,
  l0LogKey,
} from './factories.js';

export interface StrataOpenOptions {
  /** Strata home; default `$STRATA_HOME`, else `~/.strata`. */
  home?: string;
  /** Deep-merged over `<home>/config.json` and the environment, then validated. */
  overrides?: StrataConfigOverrides;
  /** Where the config loader reads STRATA_* settings and adapters read API keys (by name). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Ready parts instead of the configured ones (tests, custom providers, a shared server's clients). */
  store?: MemoryStoreV1;
  conversationIndex?: ConversationIndexV2;
  l0?: L0LogV1;
  /** Distill progress of that L0 log (default from config `state`). */
  distillProgress?: DistillProgressV1;
  /** Where hierarchical summaries are kept (default from config `state`). */
  summaryStore?: SummaryStoreV1;
  /** Where the daily journal is kept (default from config `state`). */
  journalStore?: JournalStoreV1;
  /** Where LLM calls are logged (default from config `state`). */
  usageLog?: UsageLogV1;
  /** Where scenes, persona and the organiser checkpoint are kept (default from config `state`). */
  layerStore?: LayerStoreV1;
  embedder?: EmbedderV1;
  /** An LLM adapter (wrapped in the engine's client: retries, concurrency, usage) or a ready client; null = none. */
  llm?: LlmV1 | LlmClient | null;
  /** null = no reranker even if one is configured. */
  reranker?: RerankerV1 | null;
  /** Runs the scene organiser's tool loop on a host's agent runtime (OpenClaw's embedded runner) instead of `llm`. */
  organiserRunner?: AgentRunner;
  /** The text indexed for each conversation turn (default `buildTurnDocument`). */
  buildTurnDocument?: BuildTurnDocument;
  /** Used by `reembed`: open a store recorded with another embedder without failing. */
  allowEmbedderMismatch?: boolean;
}

export interface OpenedParts {
  loaded: LoadedConfig;
  ctx: EngineContext;
  llm: LlmClient | undefined;
  distillProgress: DistillProgressV1;
  summaryStore: SummaryStoreV1;
  journalStore: JournalStoreV1;
  usageLog: UsageLogV1;
  layerStore: LayerStoreV1;
  organiserRunner?: AgentRunner;
  conversationIndex: () => Promise<ConversationIndexV2>;
  /** The conversation index if it was opened (or injected), without opening it. */
  openedConversationIndex: () => Promise<ConversationIndexV2 | undefined>;
  buildTurnDocument?: BuildTurnDocument;
}

function isClient(llm: LlmV1 | LlmClient): llm is LlmClient {
  return 'inner' in llm && (llm as LlmClient).inner !== undefined;
}

export async function openParts(options: StrataOpenOptions): Promise<OpenedParts> {
  const env = options.env ?? process.env;
  const loaded = await loadConfig({ home: options.home, overrides: options.overrides, env });
  const { config, home } = loaded;
  const [embedder, store, l0, reranker, historyStorage, distillProgress, summaryStore, journalStore, usageLog, layerStore] =
    await Promise.all([
      options.embedder ?? createEmbedderFromConfig({ config, env, home }),
      options.store ?? createStoreFromConfig({ config, home, env }),
      options.l0 ?? createL0LogFromConfig({ config, home, env }),
      options.reranker === null ? undefined : (options.reranker ?? createRerankerFromConfig({ config, env })),
      createHistoryLogFromConfig({ config, home, env }),
      options.distillProgress ?? createDistillProgressFromConfig({ config, home, env, logKey: l0LogKey({ config, home }) }),
      options.summaryStore ?? createSummaryStoreFromConfig({ config, home, env }),
      options.journalStore ?? createJournalStoreFromConfig({ config, home, env }),
      options.usageLog ?? createUsageLogFromConfig({ config, home, env }),
      options.layerStore ?? createLayerStoreFromConfig({ config, home, env }),
    ]);
  let llm: LlmClient | undefined;
  if (options.llm === undefined) llm = await createLlmFromConfig({ config, home, env, usageLog });
  else if (options.llm !== null) {
    const c = config.llm;
    llm = isClient(options.llm)
      ? options.llm
      : createLlmClient({
          llm: options.llm,
          usageLog,
          maxConcurrency: c.maxConcurrency,
          maxRetries: c.maxRetries,
          prices: c.prices,
        });
  }
  // A remote embedder with no configured length learns it from one probe call.
  const dimensions =
    'resolveDimensions' in embedder && typeof embedder.resolveDimensions === 'function'
      ? await (embedder.resolveDimensions as () => Promise<number>)()
      : embedder.dimensions;
  const ctx: EngineContext = {
    store,
    // Like the memory store (MemoryEngine), the L0 log redacts at its boundary: every append path goes through it.
    l0: config.write.redactSecrets ? redactingL0Log(l0) : l0,
    embeddings: createEmbeddingService({ embedder }),
    embedderId: embedder.id,
    dimensions,
    reranker,
    write: {
      redactSecrets: config.write.redactSecrets,
      maxChars: config.write.maxChars,
      nearDuplicateThreshold: config.write.nearDuplicateThreshold,
    },
    history: new HistoryLog({ storage: historyStorage, redact: config.write.redactSecrets }),
    now: () => new Date(),
  };
  if (!options.allowEmbedderMismatch) {
    try {
      await MemoryEngine.checkEmbedder(ctx);
    } catch (error) {
      await store.close().catch(() => undefined);
      await historyStorage.close().catch(() => undefined);
      await distillProgress.close().catch(() => undefined);
      await summaryStore.close().catch(() => undefined);
      await journalStore.close().catch(() => undefined);
      await usageLog.close().catch(() => undefined);
      await layerStore.close().catch(() => undefined);
      throw error;
    }
  }
  let index: Promise<ConversationIndexV2> | undefined = options.conversationIndex ? Promise.resolve(options.conversationIndex) : undefined;
  const conversationIndex = () => {
    index ??= createConversationIndexFromConfig({ config, home, env }).catch((error: unknown) => {
      index = undefined;
      throw error;
    });
    return index;
  };
  const openedConversationIndex = () => (index ? index.catch(() => undefined) : Promise.resolve(undefined));
  return {
    loaded,
    ctx,
    llm,
    distillProgress,
    summaryStore,
    journalStore,
    usageLog,
    layerStore,
    ...(options.organiserRunner ? { organiserRunner: options.organiserRunner } : {}),
    conversationIndex,
    openedConversationIndex,
    buildTurnDocument: options.buildTurnDocument,
  };
}
