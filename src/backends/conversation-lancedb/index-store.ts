import '../store-lancedb/log-level.js';
import * as lancedb from '@lancedb/lancedb';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import type {
  ConversationDocument,
  ConversationFilter,
  ConversationIndexCapabilities,
  ConversationIndexHit,
  ConversationIndexMeta,
  ConversationIndexV2,
  ConversationSessionRef,
  StoredConversationDocument,
} from '../../spec/conversation-index.js';
import { CONVERSATION_INDEX_SCHEMA_VERSION } from '../../spec/conversation-index.js';
import type { L0Position } from '../../spec/l0-log.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
import { readJsonFile } from '../../util/fs-util.js';
import { ftsIndexConfig } from '../store-lancedb/fts.js';
import { chunks, inList, sqlString, whereOf } from './filter.js';
import { buildSchema, C, DOCUMENT_COLUMNS, documentToRow, documentsFromArrow } from './schema.js';

/**
 * LanceDB storage for the conversation index: one table of turn documents with a full-text index
 * on the indexed text and an optional vector column. The meta (embedder, schema version) and the
 * watermark sit beside the table as small JSON files; the watermark is written after the rows it
 * covers, so it is never ahead of them.
 */
export interface LanceConversationIndexOptions {
  /** Folder of the index (e.g. `<home>/conversations/index`). */
  dir: string;
}

const TABLE = 'turns';
const META = 'conversation-index.json';
const WATERMARK = 'watermark.json';
/** Unindexed rows that make `optimize` worth its cost (about 0.7 s for 20k rows on 2 shared cores). */
const UNINDEXED_BEFORE_OPTIMIZE = 2_000;
const CAPABILITIES: ConversationIndexCapabilities = {
  fullTextSearch: true,
  vectorSearch: true,
  concurrentWriters: true,
  maxBatchUpsert: 5_000,
};

async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof StorageError || error instanceof InvalidArgumentError) throw error;
    throw new StorageError({ message: `Conversation index ${what} failed: ${(error as Error).message}`, cause: error, isRetryable: true });
  }
}

class LanceConversationIndex implements ConversationIndexV2 {
  readonly specificationVersion = 'v2' as const;
  readonly provider = 'lancedb';
  readonly capabilities = CAPABILITIES;
  private db: Promise<lancedb.Connection> | undefined;
  private table: Promise<lancedb.Table | null> | undefined;

  constructor(private readonly dir: string) {}

  private connection(): Promise<lancedb.Connection> {
    this.db ??= wrap('open', async () => {
      await mkdir(this.dir, { recursive: true });
      // readConsistencyInterval 0: every read sees other processes' writes.
      return lancedb.connect(this.dir, { readConsistencyInterval: 0 });
    }).catch((error: unknown) => {
      this.db = undefined;
      throw error;
    });
    return this.db;
  }

  private async open(): Promise<lancedb.Table | null> {
    this.table ??= (async () => {
      const db = await this.connection();
      return (await db.tableNames()).includes(TABLE) ? db.openTable(TABLE) : null;
    })().catch((error: unknown) => {
      this.table = undefined;
      throw error;
    });
    return this.table;
  }

  private async requireTable(): Promise<lancedb.Table> {
    const table = await this.open();
    if (!table) throw new StorageError({ message: `The conversation index at ${this.dir} is not initialised: call initMeta first.` });
    return table;
  }

  async getMeta(): Promise<ConversationIndexMeta | null> {
    const raw = (await readJsonFile(join(this.dir, META)).catch(() => undefined)) as Partial<ConversationIndexMeta> | undefined;
    if (!raw || typeof raw.embedderId !== 'string') return null;
    // Files written before schema versions were recorded are version 1.
    return {
      embedderId: raw.embedderId,
      dimensions: Number(raw.dimensions ?? 0),
      schemaVersion: raw.schemaVersion ?? 1,
      createdAt: raw.createdAt ?? '',
    };
  }

  async initMeta(options: { embedderId: string; dimensions: number }): Promise<ConversationIndexMeta> {
    return withFileLock({ path: join(this.dir, 'create.lock') }, async () => {
      const meta = await this.getMeta();
      if (meta) {
        if (
          meta.embedderId !== options.embedderId ||
          meta.dimensions !== options.dimensions ||
          meta.schemaVersion !== CONVERSATION_INDEX_SCHEMA_VERSION
        ) {
          throw new StorageError({
            code: 'EMBEDDER_MISMATCH',
            message: `The conversation index at ${this.dir} was built with embedder ${meta.embedderId} (${meta.dimensions}-d, schema ${meta.schemaVersion}), not ${options.embedderId} (${options.dimensions}-d, schema ${CONVERSATION_INDEX_SCHEMA_VERSION}). Reset it and re-index from the L0 log (\`strata ingest --reindex\`).`,
          });
        }
        return meta;
      }
      const db = await this.connection();
      // No meta but a table: a creation cut short (kill -9 between the table's first files and the
      // meta, which is written last). The table may lack its versions or its indexes, and holds no
      // row a watermark counts, so it is made again and the log re-indexed from the start.
      if ((await db.tableNames()).includes(TABLE)) {
        await rm(join(this.dir, `${TABLE}.lance`), { recursive: true, force: true });
        await rm(join(this.dir, WATERMARK), { force: true });
      }
      if (!(await db.tableNames()).includes(TABLE)) {
        const created = await wrap('create', () =>
          db.createEmptyTable(TABLE, buildSchema(options.dimensions), { mode: 'create', existOk: true }),
        );
        await wrap('index', () =>
          created.createIndex(C.document, {
            // The memory store's tokenizer: an English stop list that keeps content words ("dog", "city").
            config: ftsIndexConfig(),
            replace: false,
          }),
        );
        await wrap('index', () => created.createIndex(C.id, { config: lancedb.Index.btree(), replace: false }));
        created.close();
      }
      this.table = undefined;
      const next: ConversationIndexMeta = {
        ...options,
        schemaVersion: CONVERSATION_INDEX_SCHEMA_VERSION,
        createdAt: new Date().toISOString(),
      };
      await writeFileAtomic({ path: join(this.dir, META), data: JSON.stringify(next), overwrite: true });
      return next;
    });
  }

  private async dimensions(): Promise<number> {
    return (await this.getMeta())?.dimensions ?? 0;
  }

  async upsert(options: { documents: ConversationDocument[]; watermark?: L0Position }): Promise<{ inserted: number; updated: number }> {
    let inserted = 0;
    let updated = 0;
    if (options.documents.length > 0) {
      const table = await this.requireTable();
      const dims = await this.dimensions();
      const schema = buildSchema(dims);
      for (const part of chunks(options.documents, CAPABILITIES.maxBatchUpsert)) {
        // A row whose embedding text is unchanged keeps its vector (a new neighbour rewrites only
        // the lexical text); a changed one drops it, it described the old words.
        const kept = dims > 0 ? await this.get({ ids: part.map((d) => d.id), withVectors: true }) : [];
        const vectors = new Map(kept.map((d) => [d.id, d]));
        const rows = part.map((d) => {
          const old = vectors.get(d.id);
          return documentToRow(d, dims, old && old.embeddingText === d.embeddingText ? old.vector : null);
        });
        const data = lancedb.makeArrowTable(rows, { schema });
        const changed = `target.${C.document} <> source.${C.document} OR target.${C.embeddingText} <> source.${C.embeddingText}`;
        const result = await wrap('upsert', () =>
          table.mergeInsert(C.id).whenMatchedUpdateAll({ where: changed }).whenNotMatchedInsertAll().execute(data),
        );
        inserted += result.numInsertedRows;
        updated += result.numUpdatedRows;
      }
    }
    if (options.watermark !== undefined) {
      await writeFileAtomic({ path: join(this.dir, WATERMARK), data: JSON.stringify({ position: options.watermark }), overwrite: true });
    }
    return { inserted, updated };
  }

  async watermark(): Promise<L0Position | undefined> {
    const raw = (await readJsonFile(join(this.dir, WATERMARK)).catch(() => undefined)) as { position?: unknown } | undefined;
    return typeof raw?.position === 'string' ? raw.position : undefined;
  }

  async get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredConversationDocument[]> {
    const table = await this.open();
    if (!table || options.ids.length === 0) return [];
    const columns = options.withVectors && (await this.dimensions()) > 0 ? [...DOCUMENT_COLUMNS, C.vector] : DOCUMENT_COLUMNS;
    const out: StoredConversationDocument[] = [];
    for (const part of chunks([...new Set(options.ids)])) {
      const rows = await wrap('read', () =>
        table
          .query()
          .where(inList(C.id, part, 'ids'))
          .select(columns)
          .toArrow(),
      );
      out.push(...documentsFromArrow(rows).map(({ extra: _e, ...d }) => d));
    }
    const order = new Map(options.ids.map((id, i) => [id, i]));
    return out.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  async existingIds(options: { ids: string[] }): Promise<Set<string>> {
    const table = await this.open();
    const found = new Set<string>();
    if (!table) return found;
    for (const part of chunks([...new Set(options.ids)])) {
      const rows = await wrap('read', () =>
        table
          .query()
          .where(inList(C.id, part, 'ids'))
          .select([C.id])
          .toArrow(),
      );
      const col = rows.getChild(C.id);
      for (let i = 0; i < rows.numRows; i += 1) found.add(String(col?.get(i)));
    }
    return found;
  }

  async latestOfSessions(options: { sessions: ConversationSessionRef[]; perSession?: number }): Promise<ConversationDocument[]> {
    const table = await this.open();
    const keep = options.perSession ?? 1;
    if (!table || options.sessions.length === 0) return [];
    const latest = new Map<string, Array<{ id: string; position: string }>>();
    for (const part of chunks(options.sessions, 50)) {
      const where = part
        .map(
          (s) =>
            `(${C.host} = ${sqlString(s.host, 'host')} AND ${C.agentId} = ${sqlString(s.agentId, 'agentId')} AND ${C.sessionId} = ${sqlString(s.sessionId, 'sessionId')})`,
        )
        .join(' OR ');
      const rows = await wrap('read', () =>
        table.query().where(where).select([C.id, C.position, C.host, C.agentId, C.sessionId]).toArrow(),
      );
      const col = (name: string) => rows.getChild(name);
      for (let i = 0; i < rows.numRows; i += 1) {
        const key = JSON.stringify([col(C.host)?.get(i), col(C.agentId)?.get(i), col(C.sessionId)?.get(i)]);
        const list = latest.get(key) ?? [];
        list.push({ id: String(col(C.id)?.get(i)), position: String(col(C.position)?.get(i)) });
        latest.set(key, list.sort((a, b) => (a.position < b.position ? 1 : -1)).slice(0, keep));
      }
    }
    const ids = [...latest.values()]
      .flat()
      .sort((a, b) => (a.position < b.position ? -1 : 1))
      .map((l) => l.id);
    return (await this.get({ ids })).map(({ vector: _v, ...d }) => d);
  }

  async unembedded(options: { limit: number }): Promise<ConversationDocument[]> {
    const table = await this.open();
    if (!table || (await this.dimensions()) === 0) return [];
    const rows = await wrap('read', () =>
      table.query().where(`${C.embedded} = false`).select(DOCUMENT_COLUMNS).limit(options.limit).toArrow(),
    );
    return documentsFromArrow(rows).map(({ extra: _e, vector: _v, ...d }) => d);
  }

  async setVectors(options: { vectors: Array<{ id: string; embeddingText: string; vector: number[] }> }): Promise<{ updated: number }> {
    const dims = await this.dimensions();
    if (options.vectors.length === 0 || dims === 0) return { updated: 0 };
    const table = await this.requireTable();
    const current = new Map((await this.get({ ids: options.vectors.map((v) => v.id) })).map((d) => [d.id, d]));
    const rows = options.vectors.flatMap((v) => {
      const doc = current.get(v.id);
      // The words were rewritten while this vector was computed: it describes the old ones.
      return doc && doc.embeddingText === v.embeddingText ? [documentToRow(doc, dims, v.vector)] : [];
    });
    if (rows.length === 0) return { updated: 0 };
    const data = lancedb.makeArrowTable(rows, { schema: buildSchema(dims) });
    const result = await wrap('update', () =>
      table
        .mergeInsert(C.id)
        .whenMatchedUpdateAll({ where: `target.${C.embeddingText} = source.${C.embeddingText}` })
        .execute(data),
    );
    return { updated: result.numUpdatedRows };
  }

  async searchText(options: {
    query: string;
    limit: number;
    filter: ConversationFilter;
    withVectors?: boolean;
  }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    const text = options.query.trim();
    const where = whereOf(options.filter);
    const table = await this.open();
    if (!table || text === '' || where === null) return [];
    const withVectors = options.withVectors === true && (await this.dimensions()) > 0;
    const columns = [...DOCUMENT_COLUMNS, ...(withVectors ? [C.vector] : []), '_score'];
    const fts = table.query().fullTextSearch(new lancedb.MatchQuery(text, C.document)).select(columns).limit(options.limit);
    const rows = await wrap('search', () => (where ? fts.where(where) : fts).toArrow());
    return documentsFromArrow(rows, '_score').map(({ extra, vector, ...document }) => ({
      document,
      score: extra,
      ...(withVectors ? { vector } : {}),
    }));
  }

  async searchVector(options: { vector: number[]; limit: number; filter: ConversationFilter }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    const where = whereOf(options.filter);
    const table = await this.open();
    if (!table || where === null || (await this.dimensions()) === 0) return [];
    const q = table
      .query()
      .nearestTo(options.vector)
      .distanceType('cosine')
      .where([`${C.embedded} = true`, ...(where ? [where] : [])].join(' AND '))
      .select([...DOCUMENT_COLUMNS, C.vector, '_distance'])
      .limit(options.limit);
    const rows = await wrap('search', () => q.toArrow());
    return documentsFromArrow(rows, '_distance')
      .filter((d) => Number.isFinite(d.extra))
      .map(({ extra, vector, ...document }) => ({ document, score: 1 - extra, vector }));
  }

  async count(options: { filter?: ConversationFilter; embedded?: boolean } = {}): Promise<number> {
    const table = await this.open();
    const where = whereOf(options.filter ?? {});
    if (!table || where === null) return 0;
    const parts = [...(where ? [where] : []), ...(options.embedded === undefined ? [] : [`${C.embedded} = ${options.embedded}`])];
    return wrap('count', () => table.countRows(parts.length > 0 ? parts.join(' AND ') : undefined));
  }

  withWriteLock<T>(fn: () => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
    return withFileLock({ path: join(this.dir, 'write.lock'), timeoutMs: options.timeoutMs ?? 120_000 }, fn);
  }

  async reset(): Promise<void> {
    const table = await this.table?.catch(() => null);
    table?.close();
    this.table = undefined;
    const db = await this.connection();
    for (const name of await db.tableNames()) await wrap('reset', () => db.dropTable(name));
    await rm(join(this.dir, META), { force: true });
    await rm(join(this.dir, WATERMARK), { force: true });
  }

  async optimize(options: { force?: boolean } = {}): Promise<boolean> {
    const table = await this.open();
    if (!table) return false;
    if (!options.force) {
      // Rows written after the full-text index was built are searched by a scan: 20k of them cost
      // ~60 ms a query against ~5 ms indexed (bench -- conversations).
      const indices = await wrap('stats', () => table.listIndices());
      const stats = await Promise.all(indices.map((i) => wrap('stats', () => table.indexStats(i.name))));
      if (!stats.some((s) => (s?.numUnindexedRows ?? 0) >= UNINDEXED_BEFORE_OPTIMIZE)) return false;
    }
    await wrap('optimize', () => table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) }));
    return true;
  }

  async close(): Promise<void> {
    const table = await this.table?.catch(() => null);
    table?.close();
    this.table = undefined;
    const db = await this.db?.catch(() => undefined);
    db?.close();
    this.db = undefined;
  }
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidArgumentError({ argument: 'limit', message: 'limit must be an integer from 1 to 1000.' });
}

export function createLanceConversationIndex(options: LanceConversationIndexOptions): ConversationIndexV2 {
  return new LanceConversationIndex(options.dir);
}
