import type { LlmUsageEntry, UsageLogCapabilities, UsageLogV1 } from '../../spec/usage-log.js';
import { PostgresComponent, type PostgresComponentOptions } from '../store-postgres/component.js';
import { wrap } from '../store-postgres/errors.js';
import type { Migration } from '../store-postgres/migrate.js';
import { chunks, ident } from '../store-postgres/sql.js';

/**
 * The LLM usage log in PostgreSQL (migration component `usage`): one row per entry, the entry as
 * JSON text, `at` (ISO, sorts bytewise) indexed for `since`. Every machine's calls land here, so
 * `strata usage` on any of them reports the whole deployment.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'llm usage',
    async up(client, schema) {
      const s = ident(schema);
      await client.query(`CREATE TABLE ${s}.llm_usage (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, at text COLLATE "C" NOT NULL, entry text NOT NULL)`);
      await client.query(`CREATE INDEX llm_usage_at ON ${s}.llm_usage (at, seq)`);
    },
  },
];

export type PostgresUsageLogOptions = PostgresComponentOptions;

const PAGE = 1_000;

class PostgresUsageLog extends PostgresComponent implements UsageLogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'postgres';
  readonly capabilities: UsageLogCapabilities = { shared: true };

  constructor(options: PostgresUsageLogOptions) {
    super(options, { component: 'usage', migrations: MIGRATIONS, what: 'The PostgreSQL usage log', urlSetting: 'store.postgres.urlEnv' });
  }

  async append(options: { entries: LlmUsageEntry[] }): Promise<void> {
    if (options.entries.length === 0) return;
    const t = `${await this.ready()}.llm_usage`;
    for (const part of chunks(options.entries, PAGE)) {
      await wrap('usage append', () =>
        this.pool.query(`INSERT INTO ${t} (at, entry) SELECT x->>'at', x::text FROM jsonb_array_elements($1::jsonb) AS x`, [
          // NUL cannot be stored in text columns; usage entries are labels and numbers.
          JSON.stringify(part).replaceAll('\\u0000', ''),
        ]),
      );
    }
  }

  async *entries(options: { since?: string } = {}): AsyncGenerator<LlmUsageEntry> {
    const t = `${await this.ready()}.llm_usage`;
    let after = { at: options.since ?? '', seq: 0 };
    for (;;) {
      const { rows } = await wrap('usage read', () =>
        this.pool.query<{ seq: number; at: string; entry: string }>(
          `SELECT seq, at, entry FROM ${t} WHERE (at, seq) > ($1, $2) ORDER BY at, seq LIMIT ${PAGE}`,
          [after.at, after.seq],
        ),
      );
      for (const r of rows) yield JSON.parse(r.entry) as LlmUsageEntry;
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, seq: last.seq };
    }
  }
}

export function createPostgresUsageLog(options: PostgresUsageLogOptions): UsageLogV1 & { readonly schema: string } {
  return new PostgresUsageLog(options);
}
