/**
 * `store.provider: "postgres"` through config alone: Strata.open builds the PostgreSQL store from
 * the URL in the environment variable `store.postgres.urlEnv` names (never from the file), and a
 * missing variable fails with an error that says what to export.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { Strata } from '../../src/strata.js';
import { testPostgres } from '../support/postgres.js';
import { tempHome } from '../support/run-cli.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

describe('postgres store from config', () => {
  it('fills the section defaults and rejects settings it does not know', async () => {
    const home = await tempHome();
    try {
      await writeFile(join(home, 'config.json'), JSON.stringify({ store: { provider: 'postgres' } }));
      const { config } = await loadConfig({ home, env: {} });
      expect(config.store).toMatchObject({
        provider: 'postgres',
        postgres: { urlEnv: 'STRATA_POSTGRES_URL', schema: 'strata', textSearch: 'english' },
      });
      await writeFile(join(home, 'config.json'), JSON.stringify({ store: { provider: 'postgres', path: '/tmp/x' } }));
      await expect(loadConfig({ home, env: {} })).rejects.toThrow(/path/);
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({ store: { provider: 'postgres', postgres: { urlEnv: 'postgresql://u:p@h/db' } } }),
      );
      await expect(loadConfig({ home, env: {} })).rejects.toThrow(/NAME of an environment variable/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('says which variable to export when the URL is not set', async () => {
    const home = await tempHome();
    try {
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({ embedder: { provider: 'none' }, store: { provider: 'postgres', postgres: { urlEnv: 'MY_PG_URL' } } }),
      );
      await expect(Strata.open({ home, env: {} })).rejects.toThrow(/MY_PG_URL is not set: export MY_PG_URL=postgresql:/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it.skipIf(!pg)('opens, writes and recalls on PostgreSQL', async () => {
    const home = await tempHome();
    const schema = pg!.schemaName('wiring');
    try {
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({
          embedder: { provider: 'none' },
          store: { provider: 'postgres', postgres: { urlEnv: 'TEST_PG_URL', schema, poolSize: 2 } },
        }),
      );
      const strata = await Strata.open({ home, env: { TEST_PG_URL: pg!.url } });
      try {
        expect(strata.config.store.provider).toBe('postgres');
        await strata.remember({ text: 'Invoices go out on the first of the month', scope: 'global' });
        const { results } = await strata.recall({ query: 'invoices', scopes: ['global'] });
        expect(results.map((r) => r.record.text)).toEqual(['Invoices go out on the first of the month']);
      } finally {
        await strata.close();
      }
      const tables = await pg!.query<{ n: string }>('select count(*) as n from information_schema.tables where table_schema = $1', [
        schema,
      ]);
      expect(Number(tables.rows[0]!.n)).toBeGreaterThan(0);
    } finally {
      await pg!.dropSchema(schema);
      await rm(home, { recursive: true, force: true });
    }
  });
});
