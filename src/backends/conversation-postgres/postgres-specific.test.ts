import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doc } from '../../../test/contracts/conversation-index-contract.js';
import { testPostgres } from '../../../test/support/postgres.js';
import { loadConfig } from '../../config/load.js';
import { createConversationIndexFromConfig } from '../../wiring/factories.js';
import { createPostgresConversationIndex } from './index.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

/** A handle with a pool of its own (another process, in effect). */
const handle = (schema: string, name: string, textSearch?: string) =>
  createPostgresConversationIndex({ url: `${pg!.url}&application_name=${name}`, schema, poolSize: 3, textSearch });

describe.skipIf(!pg)('postgres conversation index: what the contract does not cover', () => {
  it('finds Chinese and Japanese text by words inside unspaced runs (bigrams)', async () => {
    const schema = pg!.schemaName('cjk');
    const index = handle(schema, 'cjk');
    try {
      await index.initMeta({ embedderId: 'none', dimensions: 0 });
      await index.upsert({ documents: [doc(1, '我们明天在北京开会'), doc(2, '東京で会議があります'), doc(3, 'meeting in Berlin')] });
      const ids = async (query: string) => (await index.searchText({ query, limit: 5, filter: {} })).map((h) => h.document.record.id);
      expect(await ids('北京')).toEqual(['m1']);
      expect(await ids('会議')).toEqual(['m2']);
      expect(await ids('meeting')).toEqual(['m3']);
    } finally {
      await index.close();
      await pg!.dropSchema(schema);
    }
  });

  it('two handles upserting overlapping batches at once: every document once, counts add up, statistics exact', async () => {
    const schema = pg!.schemaName('race');
    const a = handle(schema, 'race_a');
    const b = handle(schema, 'race_b');
    try {
      await a.initMeta({ embedderId: 'none', dimensions: 0 });
      const docs = Array.from({ length: 600 }, (_, i) => doc(i, `turn ${i} about topic${i % 7}`));
      // Both write every document, in opposite orders and different batch cuts.
      const results = await Promise.all([
        a.upsert({ documents: docs.slice(0, 400) }).then(async (x) => [x, await a.upsert({ documents: docs.slice(400) })]),
        b.upsert({ documents: [...docs].reverse() }).then((x) => [x]),
      ]);
      const inserted = results.flat().reduce((n, r) => n + r.inserted, 0);
      expect(inserted).toBe(600);
      expect(await b.count()).toBe(600);
      const stats = await pg!.query<{ docs: number }>(`SELECT docs::int FROM "${schema}".conversation_doc_stats`);
      expect(stats.rows[0]?.docs).toBe(600);
      const hits = await a.searchText({ query: 'topic3', limit: 1000, filter: {} });
      expect(hits).toHaveLength(docs.filter((_, i) => i % 7 === 3).length);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await pg!.dropSchema(schema);
    }
  });

  it('records its migrations under its own component, beside the memory store, and re-tokenises on a text-search change', async () => {
    const schema = pg!.schemaName('mig');
    const english = handle(schema, 'mig_en', 'english');
    try {
      await english.initMeta({ embedderId: 'none', dimensions: 0 });
      await english.upsert({ documents: [doc(1, 'the runners were running')] });
      expect((await english.searchText({ query: 'run', limit: 5, filter: {} })).length).toBe(1);
      const simple = handle(schema, 'mig_simple', 'simple');
      try {
        // `simple` does not stem: the stored row is re-tokenised, so "run" no longer matches "running".
        expect(await simple.searchText({ query: 'run', limit: 5, filter: {} })).toEqual([]);
        expect((await simple.searchText({ query: 'running', limit: 5, filter: {} })).length).toBe(1);
      } finally {
        await simple.close();
      }
      const rows = await pg!.query<{ component: string; version: number }>(`SELECT component, version FROM "${schema}".strata_migrations`);
      expect(rows.rows).toEqual([
        { component: 'conversations', version: 1 },
        { component: 'conversations', version: 2 },
      ]);
    } finally {
      await english.close();
      await pg!.dropSchema(schema);
    }
  });

  it("keeps one watermark per L0 log (watermarkKey): machines sharing the index never skip each other's records; reset clears them all", async () => {
    const schema = pg!.schemaName('wm');
    const a = createPostgresConversationIndex({ url: pg!.url, schema, watermarkKey: 'host-a:/home/a' });
    const b = createPostgresConversationIndex({ url: `${pg!.url}&application_name=wm_b`, schema, watermarkKey: 'host-b:/home/b' });
    try {
      await a.initMeta({ embedderId: 'none', dimensions: 0 });
      await a.upsert({ documents: [doc(1, 'from a')], watermark: 'p000001' });
      await b.upsert({ documents: [doc(2, 'from b', { agentId: 'b' })], watermark: 'p000900' });
      expect(await a.watermark()).toBe('p000001');
      expect(await b.watermark()).toBe('p000900');
      await b.reset();
      expect(await a.watermark()).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
      await pg!.dropSchema(schema);
    }
  });

  it('refuses a NUL in stored text with INVALID_ARGUMENT and writes nothing of the batch', async () => {
    const schema = pg!.schemaName('nul');
    const index = handle(schema, 'nul');
    try {
      await index.initMeta({ embedderId: 'none', dimensions: 0 });
      await expect(index.upsert({ documents: [doc(1, 'fine'), doc(2, 'bad\u0000text')], watermark: 'p9' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
      expect(await index.count()).toBe(0);
      expect(await index.watermark()).toBeUndefined();
    } finally {
      await index.close();
      await pg!.dropSchema(schema);
    }
  });
});

describe('config: conversations follow a Postgres store', () => {
  it('defaults conversations to postgres when the store is on postgres, keeps lancedb otherwise, and honours an explicit choice', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-convcfg-'));
    try {
      const load = async (config: unknown) => {
        await writeFile(join(dir, 'config.json'), JSON.stringify(config));
        return (await loadConfig({ home: dir, env: {} })).config;
      };
      expect((await load({ store: { provider: 'postgres' } })).conversations).toEqual({ provider: 'postgres' });
      expect((await load({})).conversations.provider).toBe('lancedb');
      expect((await load({ store: { provider: 'postgres' }, conversations: { provider: 'lancedb' } })).conversations.provider).toBe(
        'lancedb',
      );
      const config = await load({ store: { provider: 'postgres', postgres: { urlEnv: 'MY_PG' } } });
      // Without its own section the index reads the store's URL variable, and says so when it is missing.
      await expect(createConversationIndexFromConfig({ config, home: dir, env: {} })).rejects.toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringContaining('MY_PG'),
      });
      if (pg) {
        const index = await createConversationIndexFromConfig({ config, home: dir, env: { MY_PG: pg.url } });
        try {
          expect(index.provider).toBe('postgres');
          expect(await index.getMeta()).toBeNull();
        } finally {
          await index.close();
          await pg.dropSchema('strata');
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
