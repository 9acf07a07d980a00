/**
 * API tokens in the store's schema (migration component `tokens`), so every `strata serve` on the
 * database accepts a token made anywhere and drops a revoked one at once: each check is one
 * primary-key read, no cache.
 */
import type pg from 'pg';
import type { TokenRecord, TokenRegistry } from '../../remote/tokens.js';
import { wrap } from '../store-postgres/errors.js';
import { migrate, type Migration } from '../store-postgres/migrate.js';
import { poolFor, type PoolLease } from '../store-postgres/pool.js';
import { ident } from '../store-postgres/sql.js';

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'api tokens',
    async up(client, schema) {
      await client.query(`CREATE TABLE ${ident(schema)}.api_tokens (
        id text PRIMARY KEY, hash text NOT NULL, agent_id text, scopes text[], grants text[] NOT NULL,
        owner boolean NOT NULL, label text, created_at timestamptz NOT NULL, revoked_at timestamptz)`);
    },
  },
];

interface Row {
  id: string;
  hash: string;
  agent_id: string | null;
  scopes: string[] | null;
  grants: string[];
  owner: boolean;
  label: string | null;
  // The shared pool may hand timestamps back as text or as Date.
  created_at: Date | string;
  revoked_at: Date | string | null;
}

function toRecord(r: Row): TokenRecord {
  return {
    id: r.id,
    hash: r.hash,
    agentId: r.agent_id,
    scopes: r.scopes,
    grants: r.grants,
    owner: r.owner,
    label: r.label,
    createdAt: new Date(r.created_at).toISOString(),
    revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
  };
}

class PostgresTokenRegistry implements TokenRegistry {
  readonly location: string;
  private readonly pool: pg.Pool;
  private readonly lease: PoolLease | null;
  private readonly schema: string;
  private opened: Promise<string> | null = null;

  constructor(options: { url?: string; pool?: pg.Pool; schema?: string; poolSize?: number }) {
    this.schema = options.schema ?? 'strata';
    this.location = `PostgreSQL table ${this.schema}.api_tokens`;
    ({ pool: this.pool, lease: this.lease } = poolFor({
      ...options,
      what: 'The PostgreSQL token registry',
      urlSetting: 'store.postgres.urlEnv',
    }));
  }

  private ready(): Promise<string> {
    if (!this.opened) {
      this.opened = wrap('open', async () => {
        await migrate({ pool: this.pool, schema: this.schema, component: 'tokens', migrations: MIGRATIONS });
        return `${ident(this.schema)}.api_tokens`;
      });
      this.opened.catch(() => (this.opened = null));
    }
    return this.opened;
  }

  async add(r: TokenRecord): Promise<void> {
    const t = await this.ready();
    await wrap('token write', () =>
      this.pool.query(
        `INSERT INTO ${t} (id, hash, agent_id, scopes, grants, owner, label, created_at, revoked_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
        [r.id, r.hash, r.agentId, r.scopes, r.grants, r.owner, r.label, r.createdAt, r.revokedAt],
      ),
    );
  }

  async find(id: string): Promise<TokenRecord | null> {
    const t = await this.ready();
    const { rows } = await wrap('token read', () => this.pool.query<Row>(`SELECT * FROM ${t} WHERE id = $1`, [id]));
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(): Promise<TokenRecord[]> {
    const t = await this.ready();
    const { rows } = await wrap('token read', () => this.pool.query<Row>(`SELECT * FROM ${t} ORDER BY created_at, id`));
    return rows.map(toRecord);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const t = await this.ready();
    const { rowCount } = await wrap('token write', () =>
      this.pool.query(`UPDATE ${t} SET revoked_at = COALESCE(revoked_at, $2::timestamptz) WHERE id = $1`, [id, at]),
    );
    return (rowCount ?? 0) > 0;
  }

  async hasActive(): Promise<boolean> {
    const t = await this.ready();
    const { rows } = await wrap('token read', () =>
      this.pool.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${t} WHERE revoked_at IS NULL) AS any`),
    );
    return rows[0]?.any === true;
  }

  async close(): Promise<void> {
    await this.lease?.release();
  }
}

export function createPostgresTokenRegistry(options: { url?: string; pool?: pg.Pool; schema?: string; poolSize?: number }): TokenRegistry {
  return new PostgresTokenRegistry(options);
}
