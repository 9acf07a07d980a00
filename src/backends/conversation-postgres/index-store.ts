import type pg from 'pg';
import { InvalidArgumentError, StorageError } from '../../errors/index.js';
import {
  CONVERSATION_INDEX_SCHEMA_VERSION,
  type ConversationDocument,
  type ConversationFilter,
  type ConversationIndexCapabilities,
  type ConversationIndexHit,
  type ConversationIndexMeta,
  type ConversationIndexV2,
  type ConversationSessionRef,
  type StoredConversationDocument,
} from '../../spec/conversation-index.js';
import type { L0Position } from '../../spec/l0-log.js';
import { typedEmbeddingSql } from '../store-postgres/ddl.js';
import { wrap } from '../store-postgres/errors.js';
import { assertEmbedderArgs } from '../store-postgres/meta.js';
import { migrate } from '../store-postgres/migrate.js';
import { inTransaction, poolFor, type PoolLease } from '../store-postgres/pool.js';
import { chunks, ident, Params } from '../store-postgres/sql.js';
import { withAdvisoryLock } from '../store-postgres/write-lock.js';
import { CONVERSATION_MIGRATIONS, HNSW_INDEX, TERM_TABLES } from './ddl.js';
import { openIndex, type IndexState } from './open.js';
import { jsonOf, RECORDSET_TYPE, COLUMN_NAMES, documentOf, selectList, storedOf, type TurnRow } from './rows.js';
import { checkLimit, filterSql, searchText, searchVector } from './search.js';

export interface PostgresConversationIndexOptions {
  /** Connection URL; processes share one pool per URL (store-postgres/pool.ts). */
  url?: string;
  /** Or a pool the caller owns (not closed by close()). */
  pool?: pg.Pool;
  /** Schema holding the tables; the memory store's by default, so one database config serves both. */
  schema?: string;
  /** Text-search configuration (store-postgres/text-search.ts). Default `english`. */
  textSearch?: string;
  poolSize?: number;
  /** Default wait for the write lock. Default 120 s, as the LanceDB index. */
  lockTimeoutMs?: number;
  /** HNSW search breadth. Default 100. */
  efSearch?: number;
  /**
   * Whose L0 log the watermark follows. Positions belong to one log; machines sharing the index
   * each keep their log at home, so each needs its own watermark (the factory passes host and
   * home). Handles with the same key share one. Default: one watermark for all.
   */
  watermarkKey?: string;
}

const CAPABILITIES: ConversationIndexCapabilities = {
  fullTextSearch: true,
  vectorSearch: true,
  concurrentWriters: true,
  maxBatchUpsert: 500,
};
/** Rows changed since the last ANALYZE before a non-forced optimize does work (autovacuum covers the rest). */
const MODIFIED_BEFORE_OPTIMIZE = 10_000;

/**
 * ConversationIndexV2 on PostgreSQL + pgvector. Upserts, their watermark and vector updates are
 * single transactions; the write lock is a session advisory lock (released by the server if the
 * process dies); BM25 over tsvector with trigger-kept statistics, HNSW (cosine) for vectors.
 */
class PostgresConversationIndex implements ConversationIndexV2 {
  readonly specificationVersion = 'v2' as const;
  readonly provider = 'postgres';
  readonly capabilities = CAPABILITIES;
  readonly schema: string;
  private readonly pool: pg.Pool;
  private readonly lease: PoolLease | null;
  private opened: Promise<IndexState> | null = null;
  private readonly watermarkKey: string;

  constructor(private readonly options: PostgresConversationIndexOptions) {
    this.schema = options.schema ?? 'strata';
    ident(this.schema);
    this.watermarkKey = options.watermarkKey === undefined ? 'watermark' : `watermark:${options.watermarkKey.replaceAll('\u0000', '')}`;
    ({ pool: this.pool, lease: this.lease } = poolFor({
      ...options,
      what: 'The PostgreSQL conversation index',
      urlSetting: 'postgres.urlEnv',
    }));
  }

  private ready(): Promise<IndexState> {
    if (!this.opened) {
      this.opened = wrap('open', async () => {
        await migrate({ pool: this.pool, schema: this.schema, component: 'conversations', migrations: CONVERSATION_MIGRATIONS });
        return openIndex({ pool: this.pool, schema: this.schema, textSearch: this.options.textSearch ?? 'english' });
      });
      this.opened.catch(() => (this.opened = null));
    }
    return this.opened;
  }

  async getMeta(): Promise<ConversationIndexMeta | null> {
    const st = await this.ready();
    return wrap('getMeta', () => readMeta(this.pool, st.s));
  }

  private async dimensions(): Promise<number> {
    return (await this.getMeta())?.dimensions ?? 0;
  }

  async initMeta(options: { embedderId: string; dimensions: number }): Promise<ConversationIndexMeta> {
    assertEmbedderArgs(options);
    const st = await this.ready();
    const meta = await wrap('initMeta', () =>
      inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${this.schema}:conversations:meta`]);
        const existing = await readMeta(client, st.s);
        if (existing) return existing;
        if (options.dimensions > 0) {
          await client.query(typedEmbeddingSql(st.s, 'conversation_turns', st.vector, options.dimensions));
          const opclass = `${st.vectorSchema}.vector_cosine_ops`;
          await client.query(`CREATE INDEX IF NOT EXISTS ${ident(HNSW_INDEX)} ON ${st.t} USING hnsw (embedding ${opclass})`);
        }
        await client.query(
          `INSERT INTO ${st.s}.conversation_meta (embedder_id, dimensions, schema_version, created_at) VALUES ($1, $2, $3, now())`,
          [options.embedderId, options.dimensions, CONVERSATION_INDEX_SCHEMA_VERSION],
        );
        return (await readMeta(client, st.s))!;
      }),
    );
    if (
      meta.embedderId !== options.embedderId ||
      meta.dimensions !== options.dimensions ||
      meta.schemaVersion !== CONVERSATION_INDEX_SCHEMA_VERSION
    ) {
      throw new StorageError({
        code: 'EMBEDDER_MISMATCH',
        message: `The conversation index in PostgreSQL schema "${this.schema}" was built with embedder ${meta.embedderId} (${meta.dimensions}-d, schema ${meta.schemaVersion}), not ${options.embedderId} (${options.dimensions}-d, schema ${CONVERSATION_INDEX_SCHEMA_VERSION}). Reset it and re-index from the L0 log (\`strata ingest --reindex\`).`,
        details: {
          recorded: meta.embedderId,
          recordedDimensions: meta.dimensions,
          configured: options.embedderId,
          configuredDimensions: options.dimensions,
        },
      });
    }
    return meta;
  }

  async upsert(options: { documents: ConversationDocument[]; watermark?: L0Position }): Promise<{ inserted: number; updated: number }> {
    // The last copy of an id wins, as sequential upserts would; rows go in id order so concurrent writers lock alike.
    const byId = new Map(options.documents.map((d) => [d.id, d]));
    const rows = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(validated);
    const watermark = options.watermark;
    if (watermark !== undefined && (typeof watermark !== 'string' || watermark.includes('\u0000'))) {
      throw new InvalidArgumentError({ argument: 'watermark', message: 'The watermark must be an L0 position (a string without NUL).' });
    }
    const st = await this.ready();
    if (rows.length > 0 && !(await this.getMeta())) {
      throw new StorageError({
        message: 'The PostgreSQL conversation index has no meta yet: call initMeta with the embedder before upserting.',
      });
    }
    return wrap('upsert', () =>
      inTransaction(this.pool, async (client) => {
        let inserted = 0;
        let updated = 0;
        const set = COLUMN_NAMES.filter((c) => c !== 'id')
          .map((c) => `${c} = excluded.${c}`)
          .join(', ');
        for (const part of chunks(rows, CAPABILITIES.maxBatchUpsert)) {
          const p = new Params();
          // A changed text replaces the row; the vector stays while the embedding text is unchanged (it
          // describes those words) and is dropped when it changed. An unchanged row is left alone.
          const { rows: out } = await client.query<{ inserted: boolean }>(
            `INSERT INTO ${st.t} AS c (${COLUMN_NAMES.join(', ')}, tsv, doc_len)
          SELECT ${selectList('r')}, f.tsv, (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) FROM unnest(f.tsv) u)
          FROM jsonb_to_recordset(${p.add(JSON.stringify(part), 'jsonb')}) AS ${RECORDSET_TYPE}
          CROSS JOIN LATERAL (SELECT to_tsvector(${p.add(st.textSearch.index, 'regconfig')}, ${st.s}.conversation_fts_text(r.text, false)) AS tsv) f
          ON CONFLICT (id) DO UPDATE SET ${set}, embedding = CASE WHEN c.embedding_text = excluded.embedding_text THEN c.embedding END,
            tsv = excluded.tsv, doc_len = excluded.doc_len
          WHERE c.text <> excluded.text OR c.embedding_text <> excluded.embedding_text
          RETURNING (xmax = 0) AS inserted`,
            p.values,
          );
          for (const r of out) {
            if (r.inserted) inserted++;
            else updated++;
          }
        }
        if (watermark !== undefined) {
          await client.query(
            `INSERT INTO ${st.s}.conversation_state (key, value) VALUES ($2, $1)
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
            [watermark, this.watermarkKey],
          );
        }
        return { inserted, updated };
      }),
    );
  }

  async watermark(): Promise<L0Position | undefined> {
    const st = await this.ready();
    const { rows } = await wrap('watermark', () =>
      this.pool.query<{ value: string }>(`SELECT value FROM ${st.s}.conversation_state WHERE key = $1`, [this.watermarkKey]),
    );
    return rows[0]?.value;
  }

  async get(options: { ids: string[]; withVectors?: boolean }): Promise<StoredConversationDocument[]> {
    const ids = [...new Set(options.ids)].filter((id) => typeof id === 'string' && !id.includes('\u0000'));
    if (ids.length === 0) return [];
    const st = await this.ready();
    const vector = options.withVectors ? ', c.embedding::text AS embedding' : '';
    const { rows } = await wrap('get', () =>
      this.pool.query<TurnRow>(`SELECT ${selectList('c')}${vector} FROM ${st.t} c WHERE c.id = ANY($1::text[])`, [ids]),
    );
    const order = new Map(ids.map((id, i) => [id, i]));
    return rows.map(storedOf).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }

  async existingIds(options: { ids: string[] }): Promise<Set<string>> {
    const ids = [...new Set(options.ids)].filter((id) => typeof id === 'string' && !id.includes('\u0000'));
    if (ids.length === 0) return new Set();
    const st = await this.ready();
    const { rows } = await wrap('existingIds', () =>
      this.pool.query<{ id: string }>(`SELECT id FROM ${st.t} WHERE id = ANY($1::text[])`, [ids]),
    );
    return new Set(rows.map((r) => r.id));
  }

  async latestOfSessions(options: { sessions: ConversationSessionRef[]; perSession?: number }): Promise<ConversationDocument[]> {
    const sessions = options.sessions.filter(
      (x) => ![x.host, x.agentId, x.sessionId].some((v) => typeof v !== 'string' || v.includes('\u0000')),
    );
    if (sessions.length === 0) return [];
    const keep = options.perSession ?? 1;
    checkLimit(keep, 'perSession');
    const st = await this.ready();
    const { rows } = await wrap('latestOfSessions', () =>
      this.pool.query<TurnRow>(
        `SELECT x.* FROM
      (SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[]) AS q(host, agent_id, session_id)) q
      CROSS JOIN LATERAL (SELECT ${selectList('c')} FROM ${st.t} c WHERE c.host = q.host AND c.agent_id = q.agent_id AND c.session_id = q.session_id
        ORDER BY c.position DESC LIMIT $4) x
      ORDER BY x.position, x.id`,
        [sessions.map((x) => x.host), sessions.map((x) => x.agentId), sessions.map((x) => x.sessionId), keep],
      ),
    );
    return rows.map(documentOf);
  }

  async unembedded(options: { limit: number }): Promise<ConversationDocument[]> {
    const st = await this.ready();
    if ((await this.dimensions()) === 0) return [];
    const { rows } = await wrap('unembedded', () =>
      this.pool.query<TurnRow>(`SELECT ${selectList('c')} FROM ${st.t} c WHERE c.embedding IS NULL ORDER BY c.id LIMIT $1`, [
        options.limit,
      ]),
    );
    return rows.map(documentOf);
  }

  async setVectors(options: { vectors: Array<{ id: string; embeddingText: string; vector: number[] }> }): Promise<{ updated: number }> {
    const dims = await this.dimensions();
    if (options.vectors.length === 0 || dims === 0) return { updated: 0 };
    for (const v of options.vectors) {
      if (!Array.isArray(v.vector) || v.vector.length !== dims || !v.vector.every(Number.isFinite)) {
        throw new InvalidArgumentError({
          argument: 'vectors',
          message: `The vector for ${JSON.stringify(v.id)} must hold ${dims} finite numbers (the index's embedder), got ${v.vector?.length}.`,
        });
      }
    }
    const st = await this.ready();
    const rows = [...new Map(options.vectors.map((v) => [v.id, v])).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    let updated = 0;
    await wrap('setVectors', () =>
      inTransaction(this.pool, async (client) => {
        for (const part of chunks(rows, CAPABILITIES.maxBatchUpsert)) {
          // An embedding text rewritten while this vector was computed keeps its NULL: the vector describes the old words.
          const result = await client.query(
            `UPDATE ${st.t} c SET embedding = r.embedding
          FROM jsonb_to_recordset($1::jsonb) AS r(id text, embedding_text text, embedding ${st.vector}) WHERE c.id = r.id AND c.embedding_text = r.embedding_text`,
            [JSON.stringify(part.map((v) => ({ id: v.id, embedding_text: v.embeddingText, embedding: v.vector })))],
          );
          updated += result.rowCount ?? 0;
        }
      }),
    );
    return { updated };
  }

  async searchText(options: {
    query: string;
    limit: number;
    filter: ConversationFilter;
    withVectors?: boolean;
  }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    return searchText({ pool: this.pool, st: await this.ready(), ...options });
  }

  async searchVector(options: { vector: number[]; limit: number; filter: ConversationFilter }): Promise<ConversationIndexHit[]> {
    checkLimit(options.limit);
    const st = await this.ready();
    return searchVector({ pool: this.pool, st, dimensions: await this.dimensions(), efSearch: this.options.efSearch ?? 100, ...options });
  }

  async count(options: { filter?: ConversationFilter; embedded?: boolean } = {}): Promise<number> {
    const st = await this.ready();
    const p = new Params();
    const where = filterSql(options.filter ?? {}, p);
    if (where === null) return 0;
    const parts = [where];
    if (options.embedded !== undefined) {
      // Without an embedder every document counts as embedded: there is nothing to wait for.
      const lexicalOnly = (await this.dimensions()) === 0;
      parts.push(options.embedded ? (lexicalOnly ? 'true' : 'm.embedding IS NOT NULL') : lexicalOnly ? 'false' : 'm.embedding IS NULL');
    }
    const { rows } = await wrap('count', () =>
      this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM ${st.t} m WHERE ${parts.join(' AND ')}`, p.values),
    );
    return rows[0]?.n ?? 0;
  }

  async withWriteLock<T>(fn: () => Promise<T>, options: { timeoutMs?: number } = {}): Promise<T> {
    await this.ready();
    const timeoutMs = options.timeoutMs ?? this.options.lockTimeoutMs ?? 120_000;
    return withAdvisoryLock(
      {
        pool: this.pool,
        key: `strata:${this.schema}:conversations:write`,
        timeoutMs,
        what: `the conversation index in schema "${this.schema}"`,
      },
      fn,
    );
  }

  async reset(): Promise<void> {
    const st = await this.ready();
    await wrap('reset', () =>
      inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${this.schema}:conversations:meta`]);
        await client.query(`TRUNCATE ${st.t}`);
        await client.query(`TRUNCATE ${st.s}.${ident(TERM_TABLES.terms)}`);
        await client.query(`UPDATE ${st.s}.${ident(TERM_TABLES.stats)} SET docs = 0, total_len = 0`);
        await client.query(`DELETE FROM ${st.s}.conversation_meta`);
        // Every log's watermark: the documents are gone, each log re-indexes from its start.
        await client.query(`DELETE FROM ${st.s}.conversation_state WHERE key = 'watermark' OR key LIKE 'watermark:%'`);
        // The next initMeta may bring other dimensions: back to an untyped column without the HNSW index.
        await client.query(`DROP INDEX IF EXISTS ${st.s}.${ident(HNSW_INDEX)}`);
        await client.query(`ALTER TABLE ${st.t} ALTER COLUMN embedding TYPE ${st.vector}`);
      }),
    );
  }

  async optimize(options: { force?: boolean } = {}): Promise<boolean> {
    const st = await this.ready();
    return wrap('optimize', async () => {
      if (!options.force) {
        const { rows } = await this.pool.query<{ changed: number }>(
          'SELECT coalesce(n_mod_since_analyze, 0) + coalesce(n_dead_tup, 0) AS changed FROM pg_stat_user_tables WHERE relid = to_regclass($1)',
          [st.t],
        );
        if ((rows[0]?.changed ?? 0) < MODIFIED_BEFORE_OPTIMIZE) return false;
      }
      await this.pool.query(`DELETE FROM ${st.s}.${ident(TERM_TABLES.terms)} WHERE df <= 0`);
      for (const table of ['conversation_turns', TERM_TABLES.terms, TERM_TABLES.stats])
        await this.pool.query(`VACUUM (ANALYZE) ${st.s}.${ident(table)}`);
      return true;
    });
  }

  async close(): Promise<void> {
    await this.lease?.release();
  }
}

async function readMeta(client: pg.Pool | pg.ClientBase, s: string): Promise<ConversationIndexMeta | null> {
  const { rows } = await client.query<{ embedder_id: string; dimensions: number; schema_version: number; created_at: string }>(
    `SELECT embedder_id, dimensions, schema_version, created_at FROM ${s}.conversation_meta`,
  );
  const row = rows[0];
  return row
    ? { embedderId: row.embedder_id, dimensions: row.dimensions, schemaVersion: row.schema_version, createdAt: row.created_at }
    : null;
}

/** Checks a document before any of the batch is sent, so bad input never half-writes. */
function validated(d: ConversationDocument): Record<string, unknown> {
  if (typeof d?.id !== 'string' || d.id === '' || typeof d.record !== 'object' || d.record === null) {
    throw new InvalidArgumentError({
      argument: 'documents',
      message: 'Every conversation document needs a non-empty string id and its L0 record.',
    });
  }
  if (!Number.isFinite(d.record.timestamp)) {
    throw new InvalidArgumentError({
      argument: 'documents',
      message: `Document ${JSON.stringify(d.id)} has a non-numeric timestamp; L0 timestamps are epoch milliseconds.`,
    });
  }
  return jsonOf(d);
}

export function createPostgresConversationIndex(
  options: PostgresConversationIndexOptions,
): ConversationIndexV2 & { readonly schema: string } {
  return new PostgresConversationIndex(options);
}
