import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import {
  createDistillProgressFromConfig,
  createJournalStoreFromConfig,
  createL0LogFromConfig,
  l0LogKey,
} from '../../src/wiring/factories.js';
import { tempDir } from '../capture/helpers.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('shared state config', () => {
  it('keeps everything under the home by default', async () => {
    const { config } = await loadConfig({ home: tmp.dir, env: {} });
    expect(config.l0.provider).toBe('jsonl');
    expect(config.state.provider).toBe('files');
    expect(l0LogKey({ config, home: tmp.dir })).toContain(tmp.dir);
    const journal = await createJournalStoreFromConfig({ config, home: tmp.dir, env: {} });
    expect(journal.provider).toBe('files');
    expect(journal.dayLocation('2026-11-21')).toBe(`${tmp.dir}/journal/2026-11-21.md`);
  });

  it('follows a Postgres store into the database unless a section names its provider', async () => {
    const store = { provider: 'postgres' as const, postgres: { schema: 'team' } };
    const followed = (await loadConfig({ home: tmp.dir, env: {}, overrides: { store } })).config;
    expect(followed.l0).toMatchObject({ provider: 'postgres', key: 'main' });
    expect(followed.state.provider).toBe('postgres');
    expect(l0LogKey({ config: followed, home: tmp.dir })).toBe('postgres:team:main');
    const kept = (
      await loadConfig({ home: tmp.dir, env: {}, overrides: { store, l0: { provider: 'jsonl' }, state: { provider: 'files' } } })
    ).config;
    expect(kept.l0.provider).toBe('jsonl');
    expect(kept.state.provider).toBe('files');
  });

  it('names the missing URL variable instead of connecting anywhere', async () => {
    const { config } = await loadConfig({ home: tmp.dir, env: {}, overrides: { store: { provider: 'postgres' } } });
    await expect(createL0LogFromConfig({ config, home: tmp.dir, env: {} })).rejects.toThrow(/STRATA_POSTGRES_URL is not set/);
    await expect(createDistillProgressFromConfig({ config, home: tmp.dir, env: {}, logKey: 'k' })).rejects.toThrow(
      /state\.provider is "postgres" but STRATA_POSTGRES_URL/,
    );
    await expect(createJournalStoreFromConfig({ config, home: tmp.dir, env: {} })).rejects.toThrow(
      /state\.provider is "postgres" but STRATA_POSTGRES_URL/,
    );
  });

  it('rejects an unknown state provider with the list of known ones', async () => {
    await expect(loadConfig({ home: tmp.dir, env: {}, overrides: { state: { provider: 'redis' } as never } })).rejects.toThrow(
      /files, postgres/,
    );
  });
});
