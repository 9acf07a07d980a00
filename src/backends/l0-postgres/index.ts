import { hash } from 'node:crypto';
import type pg from 'pg';
import { InvalidArgumentError } from '../../errors/index.js';
import type { ConversationHost, L0Record } from '../../spec/conversation.js';
import type {
  L0AppendResult,
  L0Entry,
  L0LogCapabilities,
  L0LogV1,
  L0Position,
  L0ReadResult,
  L0RepairResult,
  L0SessionFilter,
  L0SessionInfo,
} from '../../spec/l0-log.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import type { Migration } from '../store-postgres/migrate.js';
import { inTransaction } from '../store-postgres/pool.js';
import { chunks, ident } from '../store-postgres/sql.js';

/**
 * The L0 log as one append-only table (migration component `l0`), several logs side by side
 * keyed by `log_key`. A record's position is its `seq` (zero-padded, so string order is log
 * order). Appends to one log take a transaction-scoped advisory lock, so `seq` follows commit
 * order: a reader that consumed position N never later meets a lower position committed after
 * it (the conversation index's watermark and the distill cursor rely on that), and dedupe
 * (entry id, or role + time + text, per host/agent/session: the JSONL log's rule) is decided
 * under the same lock. Nothing is ever torn: a transaction commits whole or not at all.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'l0 entries',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.l0_entries (
        log_key text COLLATE "C" NOT NULL, seq bigint NOT NULL,
        host text COLLATE "C" NOT NULL, agent_id text COLLATE "C" NOT NULL, session_key text COLLATE "C" NOT NULL,
        session_id text COLLATE "C" NOT NULL, entry_fp text NOT NULL, content_fp text NOT NULL,
        ts bigint NOT NULL, recorded_at text COLLATE "C" NOT NULL, record text NOT NULL,
        PRIMARY KEY (log_key, seq))`);
      await client.query(`CREATE UNIQUE INDEX l0_entries_entry ON ${s}.l0_entries (log_key, entry_fp)`);
      await client.query(`CREATE UNIQUE INDEX l0_entries_content ON ${s}.l0_entries (log_key, content_fp)`);
      await client.query(`CREATE INDEX l0_entries_session ON ${s}.l0_entries (log_key, session_id, seq)`);
      await client.query(`CREATE INDEX l0_entries_session_key ON ${s}.l0_entries (log_key, session_key, seq)`);
      await client.query(`CREATE INDEX l0_entries_agent ON ${s}.l0_entries (log_key, agent_id, seq)`);
    },
  },
];

export interface PostgresL0LogOptions extends PostgresComponentOptions {
  /** Which log in the table (several deployments or tenants can share one schema). Default `main`. */
  logKey?: string;
}

const CAPABILITIES: L0LogCapabilities = { concurrentAppends: true, indexedSessionReads: true, shared: true, tornTails: false };
const DEFAULT_READ_LIMIT = 1_000;
const POSITION_DIGITS = 16;

const positionOf = (seq: number): L0Position => String(seq).padStart(POSITION_DIGITS, '0');

/** The position's seq; anything that is not one of ours sorts by string order against them. */
function seqAfter(position: L0Position | undefined): number {
  if (position === undefined) return 0;
  if (!/^\d{1,16}$/.test(position))
    throw new InvalidArgumentError({
      argument: 'after',
      message: `${JSON.stringify(position)} is not a position of the PostgreSQL L0 log.`,
    });
  return Number(position);
}

function fp(text: string): string {
  return hash('sha1', text, 'base64url');
}

/** The JSONL log's dedupe keys: the entry id, and role + time + text (hosts re-number entries when they rewrite a file). */
function fingerprintsOf(r: L0Record): { entry: string; content: string } {
  const src = `${r.host}|${r.agentId}|${r.sessionId}`;
  return { entry: fp(`e|${src}|${r.id}`), content: fp(`c|${src}|${r.role}|${r.timestamp}|${r.content}`) };
}

/** Text columns only filter; PostgreSQL text cannot hold NUL (the record itself is JSON, where it is escaped). */
const col = (v: string) => v.replaceAll('\u0000', '');

interface Row {
  seq: number;
  record: string;
}

class PostgresL0Log extends PostgresComponent implements L0LogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities = CAPABILITIES;
  readonly logKey: string;

  constructor(options: PostgresL0LogOptions) {
    super(options, { component: 'l0', migrations: MIGRATIONS, what: 'The PostgreSQL L0 log', urlSetting: 'l0.postgres.urlEnv' });
    this.logKey = options.logKey ?? 'main';
  }

  /** Fingerprints (of `prints`) the log already holds. */
  private async known(client: pg.Pool | pg.PoolClient, t: string, prints: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(prints, 5_000)) {
      const { rows } = await client.query<{ f: string }>(
        `SELECT entry_fp AS f FROM ${t} WHERE log_key = $1 AND entry_fp = ANY($2::text[])
         UNION SELECT content_fp FROM ${t} WHERE log_key = $1 AND content_fp = ANY($2::text[])`,
        [this.logKey, part],
      );
      for (const r of rows) found.add(r.f);
    }
    return found;
  }

  /** Records not in the log nor repeated within the batch, with their fingerprints. */
  private fresh(records: L0Record[], known: Set<string>): Array<{ record: L0Record; entry: string; content: string }> {
    const out: Array<{ record: L0Record; entry: string; content: string }> = [];
    const seen = new Set(known);
    for (const record of records) {
      const f = fingerprintsOf(record);
      if (seen.has(f.entry) || seen.has(f.content)) continue;
      seen.add(f.entry);
      seen.add(f.content);
      out.push({ record, ...f });
    }
    return out;
  }

  async append(options: { records: L0Record[]; dryRun?: boolean; abortSignal?: AbortSignal }): Promise<L0AppendResult> {
    if (options.records.length === 0) return { written: 0, duplicates: 0, entries: [], records: [] };
    options.abortSignal?.throwIfAborted();
    const t = `${await this.ready()}.l0_entries`;
    const prints = options.records.flatMap((r) => Object.values(fingerprintsOf(r)));
    if (options.dryRun) {
      const fresh = this.fresh(options.records, await wrap('l0 read', () => this.known(this.pool, t, prints)));
      return { written: fresh.length, duplicates: options.records.length - fresh.length, entries: [], records: fresh.map((f) => f.record) };
    }
    return wrap('l0 append', () =>
      inTransaction(this.pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`strata:${this.schema}:l0:${this.logKey}`]);
        const fresh = this.fresh(options.records, await this.known(client, t, prints));
        const duplicates = options.records.length - fresh.length;
        if (fresh.length === 0) return { written: 0, duplicates, entries: [], records: [] };
        const { rows } = await client.query<{ last: number | null }>(`SELECT max(seq) AS last FROM ${t} WHERE log_key = $1`, [this.logKey]);
        let seq = rows[0]?.last ?? 0;
        const entries: L0Entry[] = [];
        const rowsOut = fresh.map((f) => {
          seq += 1;
          entries.push({ position: positionOf(seq), record: f.record });
          const r = f.record;
          return [
            seq,
            col(r.host),
            col(r.agentId),
            col(r.sessionKey),
            col(r.sessionId),
            f.entry,
            f.content,
            r.timestamp,
            col(r.recordedAt),
            JSON.stringify(r),
          ];
        });
        for (const part of chunks(rowsOut, 1_000)) {
          await client.query(
            `INSERT INTO ${t} (log_key, seq, host, agent_id, session_key, session_id, entry_fp, content_fp, ts, recorded_at, record)
             SELECT $1, (x->>0)::bigint, x->>1, x->>2, x->>3, x->>4, x->>5, x->>6, (x->>7)::bigint, x->>8, x->>9
             FROM jsonb_array_elements($2::jsonb) AS x`,
            [this.logKey, JSON.stringify(part)],
          );
        }
        return { written: fresh.length, duplicates, entries, records: fresh.map((f) => f.record) };
      }),
    );
  }

  async read(options: { after?: L0Position; limit?: number; abortSignal?: AbortSignal } = {}): Promise<L0ReadResult> {
    const limit = options.limit ?? DEFAULT_READ_LIMIT;
    if (!Number.isInteger(limit) || limit < 1)
      throw new InvalidArgumentError({ argument: 'limit', message: `limit must be a positive whole number, got ${limit}.` });
    const after = seqAfter(options.after);
    const t = `${await this.ready()}.l0_entries`;
    options.abortSignal?.throwIfAborted();
    const { rows } = await wrap('l0 read', () =>
      this.pool.query<Row>(`SELECT seq, record FROM ${t} WHERE log_key = $1 AND seq > $2 ORDER BY seq LIMIT $3`, [
        this.logKey,
        after,
        limit + 1,
      ]),
    );
    const page = rows.slice(0, limit);
    const entries = page.map(entryOf);
    return { entries, end: entries.at(-1)?.position ?? options.after, done: rows.length <= limit };
  }

  async readSession(options: L0SessionFilter & { abortSignal?: AbortSignal }): Promise<L0Entry[]> {
    const t = `${await this.ready()}.l0_entries`;
    const { where, values } = filterSql(this.logKey, options);
    const { rows } = await wrap('l0 read', () => this.pool.query<Row>(`SELECT seq, record FROM ${t} WHERE ${where} ORDER BY seq`, values));
    return rows.map(entryOf);
  }

  async sessions(options: { agentId?: string; host?: ConversationHost; abortSignal?: AbortSignal } = {}): Promise<L0SessionInfo[]> {
    const t = `${await this.ready()}.l0_entries`;
    const { where, values } = filterSql(this.logKey, options);
    const { rows } = await wrap('l0 read', () =>
      this.pool.query<L0SessionInfo>(
        `SELECT host, agent_id AS "agentId", session_key AS "sessionKey", session_id AS "sessionId", count(*)::int AS messages,
           min(ts) AS "firstTimestamp", max(ts) AS "lastTimestamp", max(recorded_at) AS "lastRecordedAt"
         FROM ${t} WHERE ${where} GROUP BY host, agent_id, session_key, session_id ORDER BY max(ts) DESC, max(seq) DESC`,
        values,
      ),
    );
    return rows.map((r) => ({ ...r, host: r.host }));
  }

  async has(options: { record: L0Record }): Promise<boolean> {
    const t = `${await this.ready()}.l0_entries`;
    const f = fingerprintsOf(options.record);
    return (await wrap('l0 read', () => this.known(this.pool, t, [f.entry, f.content]))).size > 0;
  }

  /** A transaction is whole or absent: there is no torn tail to cut nor fingerprint to rebuild. */
  async repair(): Promise<L0RepairResult> {
    await this.ready();
    return { truncated: 0, reindexed: 0 };
  }
}

function entryOf(row: Row): L0Entry {
  return { position: positionOf(row.seq), record: JSON.parse(row.record) as L0Record };
}

function filterSql(logKey: string, f: L0SessionFilter): { where: string; values: unknown[] } {
  const values: unknown[] = [logKey];
  const parts = ['log_key = $1'];
  const add = (column: string, value: string | undefined, op = '=') => {
    if (value === undefined) return;
    values.push(col(value));
    parts.push(`${column} ${op} $${values.length}`);
  };
  add('agent_id', f.agentId);
  add('session_id', f.sessionId);
  add('session_key', f.sessionKey);
  add('host', f.host);
  add('recorded_at', f.recordedSince, '>=');
  return { where: parts.join(' AND '), values };
}

export function createPostgresL0Log(options: PostgresL0LogOptions): L0LogV1 & { readonly schema: string; readonly logKey: string } {
  return new PostgresL0Log(options);
}
