import type pg from 'pg';
import { LayerConflictError } from '../../errors/index.js';
import {
  assertLayerFileName,
  type LayerChange,
  type LayerSnapshot,
  type LayerStoreCapabilities,
  type LayerStoreV1,
} from '../../spec/layer-store.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import type { Migration } from '../store-postgres/migrate.js';
import { inTransaction } from '../store-postgres/pool.js';
import { ident } from '../store-postgres/sql.js';

/**
 * Scenes, scene index, persona and organiser checkpoint in PostgreSQL (migration component
 * `layers`): `layer_agents` holds each agent's version, `layer_files` its files (bytea, so any
 * text the model wrote round-trips byte for byte, NUL included). A read is one statement (one
 * snapshot); a commit is one transaction that locks the agent's version row, checks it, applies
 * every change and bumps the version, so two machines never both commit on the same version.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'layer files',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.layer_agents (
        agent_id text COLLATE "C" PRIMARY KEY, version bigint NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE TABLE ${s}.layer_files (
        agent_id text COLLATE "C" NOT NULL REFERENCES ${s}.layer_agents (agent_id) ON DELETE CASCADE,
        name text COLLATE "C" NOT NULL, content bytea NOT NULL, PRIMARY KEY (agent_id, name))`);
    },
  },
];

export type PostgresLayerStoreOptions = PostgresComponentOptions;

class PostgresLayerStore extends PostgresComponent implements LayerStoreV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: LayerStoreCapabilities = { shared: true, atomicCommit: true };

  constructor(options: PostgresLayerStoreOptions) {
    super(options, {
      component: 'layers',
      migrations: MIGRATIONS,
      what: 'The PostgreSQL layer store',
      urlSetting: 'store.postgres.urlEnv',
    });
  }

  async read(options: { agentId: string; names?: string[] }): Promise<LayerSnapshot> {
    const s = await this.ready();
    const names = options.names?.map(assertLayerFileName) ?? null;
    // One statement, one snapshot: the version and the files always belong together.
    const { rows } = await wrap('layers read', () =>
      this.pool.query<{ version: string; name: string | null; content: Buffer | null }>(
        `SELECT a.version, f.name, f.content FROM ${s}.layer_agents a
         LEFT JOIN ${s}.layer_files f ON f.agent_id = a.agent_id AND ($2::text[] IS NULL OR f.name = ANY ($2::text[]))
         WHERE a.agent_id = $1 ORDER BY f.name`,
        [options.agentId, names],
      ),
    );
    const files: Record<string, string> = {};
    for (const row of rows) if (row.name !== null && row.content !== null) files[row.name] = row.content.toString('utf8');
    return { version: rows[0] ? Number(rows[0].version) : 0, files };
  }

  async commit(options: { agentId: string; changes: LayerChange[]; expectedVersion: number }): Promise<{ version: number }> {
    const s = await this.ready();
    const changes = options.changes.map((c) => ({ ...c, name: assertLayerFileName(c.name) }));
    return wrap('layers commit', () =>
      inTransaction(this.pool, async (client: pg.PoolClient) => {
        await client.query(`INSERT INTO ${s}.layer_agents (agent_id, version) VALUES ($1, 0) ON CONFLICT (agent_id) DO NOTHING`, [
          options.agentId,
        ]);
        // The row lock makes a second committer wait here and then see the version the first one wrote.
        const { rows } = await client.query<{ version: string }>(`SELECT version FROM ${s}.layer_agents WHERE agent_id = $1 FOR UPDATE`, [
          options.agentId,
        ]);
        const actual = Number(rows[0]!.version);
        if (actual !== options.expectedVersion) {
          throw new LayerConflictError({ agentId: options.agentId, expectedVersion: options.expectedVersion, actualVersion: actual });
        }
        if (changes.length === 0) return { version: actual };
        for (const change of changes) {
          if (change.text === null) {
            await client.query(`DELETE FROM ${s}.layer_files WHERE agent_id = $1 AND name = $2`, [options.agentId, change.name]);
          } else {
            await client.query(
              `INSERT INTO ${s}.layer_files (agent_id, name, content) VALUES ($1, $2, $3)
               ON CONFLICT (agent_id, name) DO UPDATE SET content = EXCLUDED.content`,
              [options.agentId, change.name, Buffer.from(change.text, 'utf8')],
            );
          }
        }
        await client.query(`UPDATE ${s}.layer_agents SET version = $2, updated_at = now() WHERE agent_id = $1`, [
          options.agentId,
          actual + 1,
        ]);
        return { version: actual + 1 };
      }),
    );
  }
}

export function createPostgresLayerStore(options: PostgresLayerStoreOptions): LayerStoreV1 & { readonly schema: string } {
  return new PostgresLayerStore(options);
}
