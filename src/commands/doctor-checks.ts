/**
 * Doctor checks beyond config, store and embedder: the configured LLM (key present, server
 * reachable, one tiny completion) and orphan tables an interrupted `reembed` can leave behind.
 */
import type { MemoryStoreV1 } from '../spec/memory-store.js';
import type { StrataConfig } from '../config/schema.js';
import { llmProviderOf } from '../config/schema.js';
import { createLlmFromConfig } from '../wiring/factories.js';

/** Stores that can find and drop tables no meta file names (LanceDB). */
interface OrphanAware {
  orphanTables(): Promise<string[]>;
  dropOrphanTables(): Promise<string[]>;
}

function orphanAware(store: MemoryStoreV1): (MemoryStoreV1 & OrphanAware) | undefined {
  const s = store as MemoryStoreV1 & Partial<OrphanAware>;
  return typeof s.orphanTables === 'function' && typeof s.dropOrphanTables === 'function' ? (s as MemoryStoreV1 & OrphanAware) : undefined;
}

/** Orphan tables: reported, or dropped with `repair`. Throws (a failed check) when some remain. */
export async function checkOrphans(store: MemoryStoreV1, repair: boolean): Promise<string> {
  const aware = orphanAware(store);
  if (!aware) return `${store.provider}: not applicable`;
  if (repair) {
    const dropped = await aware.dropOrphanTables();
    return dropped.length === 0 ? 'none' : `dropped ${dropped.length}: ${dropped.join(', ')}`;
  }
  const orphans = await aware.orphanTables();
  if (orphans.length > 0)
    throw new Error(`${orphans.length} left by an interrupted reembed: ${orphans.join(', ')}; run \`strata doctor --repair\` to drop them`);
  return 'none';
}

/** Undefined when no LLM is configured (not a failure: rules distil without one). */
export async function checkLlm(config: StrataConfig, home: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (llmProviderOf({ config }) === 'none') return undefined;
  // Construction checks the settings (model set, key present where one is needed).
  const client = await createLlmFromConfig({ config, home, env });
  if (!client) return undefined;
  const started = Date.now();
  const out = await client.inner.doGenerate({
    messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
    maxTokens: 5,
    temperature: 0,
    abortSignal: AbortSignal.timeout(Math.min(config.llm.timeoutMs ?? 30_000, 30_000)),
  });
  return `${client.provider}:${client.modelId} answered in ${Date.now() - started} ms (${out.usage.inputTokens} + ${out.usage.outputTokens} tokens)`;
}
