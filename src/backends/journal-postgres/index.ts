import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { StorageError, StrataError } from '../../errors/index.js';
import type {
  JournalArticleText,
  JournalCompileCommit,
  JournalCompiledDay,
  JournalFlushCommit,
  JournalLock,
  JournalPendingFlush,
  JournalPendingOutcome,
  JournalPendingRetry,
  JournalSessionProgress,
  JournalStoreCapabilities,
  JournalStoreV1,
} from '../../spec/journal-store.js';
import { withAdvisoryLock } from '../store-postgres/advisory-lock.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import { inTransaction } from '../store-postgres/pool.js';
import { JOURNAL_MIGRATIONS } from './migrations.js';

export type PostgresJournalStoreOptions = PostgresComponentOptions;

/** PostgreSQL text cannot hold NUL. */
const clean = (v: string) => v.replaceAll('\u0000', '');

type Queryable = pg.Pool | pg.PoolClient;

/**
 * The daily journal in PostgreSQL, shared by every machine on the database. Locks are session
 * advisory locks (they end with their holder: nothing goes stale); while one is held, every read
 * and write of that run goes over the locked connection, so a run that lost its connection (and
 * with it the lock) cannot commit over the run that took over. A flush's entry and the session's
 * progress, a pending retry's entry and its removal, and a compile's articles, index and day
 * state are each one transaction: no crash leaves a day flushed or compiled but not recorded.
 */
class PostgresJournalStore extends PostgresComponent implements JournalStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: JournalStoreCapabilities = { shared: true, lockEndsWithHolder: true };
  /** The locked connection of the run in progress (per async context). */
  private readonly holder = new AsyncLocalStorage<pg.PoolClient>();

  constructor(options: PostgresJournalStoreOptions) {
    super(options, {
      component: 'journal',
      migrations: JOURNAL_MIGRATIONS,
      what: 'The PostgreSQL journal',
      urlSetting: 'store.postgres.urlEnv',
    });
  }

  private db(): Queryable {
    return this.holder.getStore() ?? this.pool;
  }

  private async query<R extends pg.QueryResultRow>(what: string, text: string, values: unknown[] = []): Promise<R[]> {
    await this.ready();
    return (await wrap(`journal ${what}`, () => this.db().query<R>(text, values))).rows;
  }

  /** `fn` in one transaction, on the locked connection when a lock is held. */
  private async tx<T>(what: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    const held = this.holder.getStore();
    return wrap(`journal ${what}`, async () => {
      if (!held) return inTransaction(this.pool, fn);
      await held.query('BEGIN');
      try {
        const result = await fn(held);
        await held.query('COMMIT');
        return result;
      } catch (error) {
        await held.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  private lockName(lock: JournalLock): string {
    return `strata:${this.schema}:journal:${lock.kind === 'compile' ? 'compile' : `session:${clean(lock.sessionId)}`}`;
  }

  async exclusive<T>(options: { lock: JournalLock; timeoutMs: number }, fn: () => Promise<T>): Promise<T> {
    await this.ready();
    const { lock } = options;
    const busy =
      lock.kind === 'compile'
        ? 'Another Strata process is compiling the journal; the next compile continues it.'
        : `Another Strata process is flushing session ${lock.sessionId} to the journal; retry after it.`;
    return withAdvisoryLock({ pool: this.pool, name: this.lockName(lock), timeoutMs: options.timeoutMs, busy }, (client) =>
      this.holder.run(client, fn),
    );
  }

  dayLocation(day: string): string {
    return `postgres:${this.schema}.journal_days/${day}`;
  }

  async days(): Promise<string[]> {
    return (await this.query<{ day: string }>('read', `SELECT day FROM ${await this.ready()}.journal_days ORDER BY day`)).map((r) => r.day);
  }

  async readDay(day: string): Promise<string | undefined> {
    const rows = await this.query<{ text: string }>('read', `SELECT text FROM ${await this.ready()}.journal_days WHERE day = $1`, [day]);
    return rows[0]?.text;
  }

  /** One statement: the row lock of the upsert orders concurrent appends, none is lost. */
  private async append(db: Queryable, s: string, entry: { day: string; text: string }): Promise<void> {
    await db.query(
      `INSERT INTO ${s}.journal_days AS d (day, text) VALUES ($1, $2 || $3) ON CONFLICT (day) DO UPDATE SET text =
         CASE WHEN d.text = '' OR right(d.text, 2) = E'\\n\\n' THEN d.text WHEN right(d.text, 1) = E'\\n' THEN d.text || E'\\n'
              ELSE d.text || E'\\n\\n' END || $3, updated_at = now()`,
      [entry.day, `# Journal ${entry.day}\n\n`, clean(entry.text)],
    );
  }

  async appendToDay(options: { day: string; text: string }): Promise<void> {
    const s = await this.ready();
    await wrap('journal append', () => this.append(this.db(), s, options));
  }

  async readProgress(sessionId: string): Promise<JournalSessionProgress | undefined> {
    const s = await this.ready();
    const rows = await this.query<{ progress_json: string }>(
      'read',
      `SELECT progress_json FROM ${s}.journal_sessions WHERE session_id = $1`,
      [clean(sessionId)],
    );
    return rows[0] ? (JSON.parse(rows[0].progress_json) as JournalSessionProgress) : undefined;
  }

  async commitFlush(options: JournalFlushCommit): Promise<{ pendingId?: string }> {
    const s = await this.ready();
    const pendingId = options.pending ? `${options.pending.flushedAt}-${randomBytes(4).toString('hex')}` : undefined;
    await this.tx('flush commit', async (client) => {
      if (options.entry) await this.append(client, s, options.entry);
      if (options.pending)
        await client.query(`INSERT INTO ${s}.journal_pending (id, pending_json) VALUES ($1, $2)`, [
          pendingId,
          clean(JSON.stringify(options.pending)),
        ]);
      await client.query(
        `INSERT INTO ${s}.journal_sessions (session_id, progress_json, last_flush_at) VALUES ($1, $2, $3)
         ON CONFLICT (session_id) DO UPDATE SET progress_json = EXCLUDED.progress_json, last_flush_at = EXCLUDED.last_flush_at`,
        [clean(options.sessionId), clean(JSON.stringify(options.progress)), options.progress.lastFlushAt],
      );
      await client.query(`DELETE FROM ${s}.journal_sessions WHERE last_flush_at < $1`, [options.forgetBefore]);
    });
    return pendingId ? { pendingId } : {};
  }

  async listPending(): Promise<string[]> {
    return (await this.query<{ id: string }>('read', `SELECT id FROM ${await this.ready()}.journal_pending ORDER BY id`)).map((r) => r.id);
  }

  async withPending(id: string, fn: JournalPendingRetry): Promise<JournalPendingOutcome> {
    const s = await this.ready();
    const lock = { pool: this.pool, name: `strata:${this.schema}:journal:pending:${id}`, timeoutMs: 200, busy: `pending ${id} is held` };
    try {
      return await withAdvisoryLock(lock, (client) =>
        this.holder.run(client, async (): Promise<JournalPendingOutcome> => {
          const rows = await this.query<{ pending_json: string }>('read', `SELECT pending_json FROM ${s}.journal_pending WHERE id = $1`, [
            id,
          ]);
          if (!rows[0]) return 'gone'; // another process finished it
          const pending = JSON.parse(rows[0].pending_json) as JournalPendingFlush;
          const result = await fn(pending);
          await this.tx('pending commit', async (tx) => {
            if (result.ok) {
              await this.append(tx, s, result);
              await tx.query(`DELETE FROM ${s}.journal_pending WHERE id = $1`, [id]);
            } else {
              const next = { ...pending, failures: pending.failures + 1, lastError: result.error };
              await tx.query(`UPDATE ${s}.journal_pending SET pending_json = $2 WHERE id = $1`, [id, clean(JSON.stringify(next))]);
            }
          });
          return result.ok ? 'done' : 'failed';
        }),
      );
    } catch (error) {
      if (StrataError.isInstance(error) && error.code === 'STORE_LOCKED') return 'busy';
      throw error;
    }
  }

  async readCompiled(): Promise<Record<string, JournalCompiledDay>> {
    const s = await this.ready();
    const rows = await this.query<{ day: string; hash: string; length: number; compiled_at: string }>(
      'read',
      `SELECT day, hash, length, compiled_at FROM ${s}.journal_compiled`,
    );
    return Object.fromEntries(rows.map((r) => [r.day, { hash: r.hash, length: r.length, compiledAt: r.compiled_at }]));
  }

  async readArticles(): Promise<JournalArticleText[]> {
    return this.query<JournalArticleText>('read', `SELECT slug, text FROM ${await this.ready()}.journal_articles ORDER BY slug`);
  }

  async readIndex(): Promise<string | undefined> {
    return (await this.query<{ text: string }>('read', `SELECT text FROM ${await this.ready()}.journal_index`))[0]?.text;
  }

  async commitCompile(options: JournalCompileCommit): Promise<void> {
    const s = await this.ready();
    for (const a of options.articles) {
      if (!/^[a-z0-9-]+$/.test(a.slug))
        throw new StorageError({ message: `The journal article slug ${JSON.stringify(a.slug)} is not [a-z0-9-]; nothing was written.` });
    }
    await this.tx('compile commit', async (client) => {
      for (const a of options.articles)
        await client.query(
          `INSERT INTO ${s}.journal_articles (slug, text) VALUES ($1, $2)
           ON CONFLICT (slug) DO UPDATE SET text = EXCLUDED.text, updated_at = now()`,
          [a.slug, clean(a.text)],
        );
      await client.query(
        `INSERT INTO ${s}.journal_index (id, text) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text, updated_at = now()`,
        [clean(options.index)],
      );
      const c = options.compiled;
      await client.query(
        `INSERT INTO ${s}.journal_compiled (day, hash, length, compiled_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (day) DO UPDATE SET hash = EXCLUDED.hash, length = EXCLUDED.length, compiled_at = EXCLUDED.compiled_at`,
        [options.day, c.hash, c.length, c.compiledAt],
      );
    });
  }
}

export function createPostgresJournalStore(options: PostgresJournalStoreOptions): JournalStoreV1 & { readonly schema: string } {
  return new PostgresJournalStore(options);
}
