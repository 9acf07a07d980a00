import type { ConversationIndexV1, L0Record } from '../spec/conversation.js';
import { L0Log } from './l0-log.js';

/**
 * Feeds the whole L0 log into a conversation index (re-indexing, or an index created after the
 * log). `add` ignores records already present, so this is safe to repeat. Live ingest feeds new
 * records through `ingest({ onRecords })` instead.
 */
export async function indexL0Log(options: { home: string; index: ConversationIndexV1; batchSize?: number; abortSignal?: AbortSignal }): Promise<{ read: number; added: number }> {
  const batchSize = options.batchSize ?? 2_000;
  let batch: L0Record[] = [];
  let read = 0;
  let added = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    added += (await options.index.add({ records: batch, abortSignal: options.abortSignal })).added;
    batch = [];
  };
  for await (const record of new L0Log({ home: options.home }).records()) {
    if (options.abortSignal?.aborted) break;
    read += 1;
    batch.push(record);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { read, added };
}
