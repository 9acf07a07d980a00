import * as lancedb from '@lancedb/lancedb';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import { retryWithBackoff } from '../../provider-utils/retry.js';
import type { ConversationIndexV1, ConversationSearchHit, L0Record } from '../../spec/conversation.js';
import type { EmbedderV1 } from '../../spec/embedder.js';
import { withFileLock } from '../../util/file-lock.js';
import { buildSchema, C, RECORD_COLUMNS, recordToRow, recordsFromArrow } from './schema.js';

/**
 * LanceDB table of L0 messages for conversation search. `add` writes rows with full-text
 * indexing right away; vectors come later from `embedPending` batches, so capture never waits on
 * an embedder. Search is BM25, fused (reciprocal rank) with vector search once vectors exist.
 */
export interface LanceConversationIndexOptions {
  /** Folder of the index (e.g. `<home>/conversations/index`). */
  dir: string;
  /** Optional: without one the index is full-text only. */
  embedder?: EmbedderV1;
}

const TABLE = 'conversations';
const META = 'conversation-index.json';
const RRF_K = 60;

function sqlString(value: string, argument: string): string {
  if (value.includes('\u0000')) throw new InvalidArgumentError({ argument, message: `${argument} contains a NUL character; remove it and retry.` });
  return `'${value.replaceAll("'", "''")}'`;
}

async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StorageError || error instanceof InvalidArgumentError) throw error;
    throw new StorageError({ message: `Conversation index ${what} failed: ${(error as Error).message}`, cause: error });
  }
}

export async function openLanceConversationIndex(options: LanceConversationIndexOptions): Promise<ConversationIndexV1> {
  const embedderId = options.embedder?.id ?? 'none';
  const dimensions = options.embedder?.dimensions ?? 0;
  await mkdir(options.dir, { recursive: true });
  const table = await withFileLock({ path: join(options.dir, 'create.lock') }, async () => {
    const metaPath = join(options.dir, META);
    const meta = await readFile(metaPath, 'utf8').then((t) => JSON.parse(t) as { embedderId: string; dimensions: number }, () => undefined);
    if (meta && (meta.embedderId !== embedderId || meta.dimensions !== dimensions)) {
      throw new StorageError({
        code: 'EMBEDDER_MISMATCH',
        message: `The conversation index at ${options.dir} was built with embedder ${meta.embedderId} (${meta.dimensions} dims), not ${embedderId} (${dimensions}). Use the same embedder, or delete the folder and re-index from the L0 log.`,
      });
    }
    const db = await wrap('open', () => lancedb.connect(options.dir, { readConsistencyInterval: 0 }));
    if ((await db.tableNames()).includes(TABLE)) return db.openTable(TABLE);
    const created = await wrap('create', () => db.createEmptyTable(TABLE, buildSchema(dimensions), { mode: 'create', existOk: true }));
    await wrap('index', () => created.createIndex(C.content, {
      config: lancedb.Index.fts({ baseTokenizer: 'icu', stem: true, language: 'English', lowercase: true, withPosition: true }),
      replace: false,
    }));
    await wrap('index', () => created.createIndex(C.rowKey, { config: lancedb.Index.btree(), replace: false }));
    if (!meta) await writeFile(metaPath, JSON.stringify({ embedderId, dimensions }));
    return created;
  });
  return new LanceConversationIndex(table, dimensions, options.embedder);
}

class LanceConversationIndex implements ConversationIndexV1 {
  constructor(private readonly table: lancedb.Table, private readonly dimensions: number, private readonly embedder: EmbedderV1 | undefined) {}

  async add(options: { records: L0Record[]; abortSignal?: AbortSignal }): Promise<{ added: number }> {
    if (options.records.length === 0) return { added: 0 };
    const rows = options.records.map((r) => recordToRow(r, this.dimensions));
    const data = lancedb.makeArrowTable(rows, { schema: buildSchema(this.dimensions) });
    const result = await wrap('add', () => this.table.mergeInsert(C.rowKey).whenNotMatchedInsertAll().execute(data));
    return { added: result.numInsertedRows };
  }

  async search(options: { query: string; limit: number; agentId?: string; sessionKey?: string; abortSignal?: AbortSignal }): Promise<ConversationSearchHit[]> {
    if (!Number.isInteger(options.limit) || options.limit < 1 || options.limit > 1000) {
      throw new InvalidArgumentError({ argument: 'limit', message: 'limit must be an integer from 1 to 1000.' });
    }
    const text = options.query.trim();
    if (text === '') return [];
    const filters: string[] = [];
    if (options.agentId !== undefined) filters.push(`${C.agentId} = ${sqlString(options.agentId, 'agentId')}`);
    if (options.sessionKey !== undefined) filters.push(`${C.sessionKey} = ${sqlString(options.sessionKey, 'sessionKey')}`);
    const where = filters.length > 0 ? filters.join(' AND ') : undefined;
    const fts = this.table.query().fullTextSearch(new lancedb.MatchQuery(text, C.content)).select([...RECORD_COLUMNS, '_score']).limit(options.limit);
    const lexical = recordsFromArrow(await wrap('search', () => (where ? fts.where(where) : fts).toArrow()), '_score');
    if (!this.embedder || this.dimensions === 0) return lexical.map((h) => ({ record: h.record, score: h.extra }));
    const [vector] = (await this.embedder.doEmbed({ texts: [text], kind: 'query', abortSignal: options.abortSignal })).embeddings;
    if (!vector) return lexical.map((h) => ({ record: h.record, score: h.extra }));
    const vq = this.table.query().nearestTo(vector).distanceType('cosine').where([`${C.embedded} = true`, ...filters].join(' AND '))
      .select([...RECORD_COLUMNS, '_distance']).limit(options.limit);
    const semantic = recordsFromArrow(await wrap('search', () => vq.toArrow()), '_distance').filter((h) => Number.isFinite(h.extra));
    // Reciprocal-rank fusion: robust to BM25 and cosine living on different scales.
    const fused = new Map<string, ConversationSearchHit>();
    for (const list of [lexical, semantic]) {
      list.forEach((h, rank) => {
        const key = JSON.stringify([h.record.host, h.record.agentId, h.record.sessionId, h.record.id]);
        const hit = fused.get(key) ?? { record: h.record, score: 0 };
        hit.score += 1 / (RRF_K + rank + 1);
        fused.set(key, hit);
      });
    }
    return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, options.limit);
  }

  async embedPending(options: { batchSize?: number; abortSignal?: AbortSignal } = {}): Promise<{ embedded: number; remaining: number }> {
    if (!this.embedder || this.dimensions === 0) return { embedded: 0, remaining: 0 };
    const embedder = this.embedder;
    const batchSize = Math.max(1, options.batchSize ?? 256);
    const pending = recordsFromArrow(await wrap('read', () => this.table.query().where(`${C.embedded} = false`).select(RECORD_COLUMNS).limit(batchSize).toArrow()));
    if (pending.length === 0) return { embedded: 0, remaining: 0 };
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < pending.length; i += embedder.maxBatchSize) {
      const slice = pending.slice(i, i + embedder.maxBatchSize);
      const { embeddings } = await retryWithBackoff(
        () => embedder.doEmbed({ texts: slice.map((p) => p.record.content), kind: 'document', abortSignal: options.abortSignal }),
        { abortSignal: options.abortSignal, operation: 'embed conversation messages' },
      );
      slice.forEach((p, k) => rows.push(recordToRow(p.record, this.dimensions, embeddings[k] ?? null)));
    }
    const data = lancedb.makeArrowTable(rows, { schema: buildSchema(this.dimensions) });
    await wrap('update', () => this.table.mergeInsert(C.rowKey).whenMatchedUpdateAll().execute(data));
    const remaining = await wrap('count', () => this.table.countRows(`${C.embedded} = false`));
    return { embedded: rows.length, remaining };
  }

  count(): Promise<number> {
    return wrap('count', () => this.table.countRows());
  }

  async close(): Promise<void> {
    this.table.close();
  }
}
