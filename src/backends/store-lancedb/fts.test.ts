import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRecord } from '../../../test/fixtures/store/records.js';
import { ENGLISH_STOP_WORDS, FTS_INDEX_VERSION } from './fts.js';
import { createLanceDbStore } from './index.js';
import { META_FILE } from './meta.js';
import { COLUMNS } from './schema.js';
import { lancedb } from './tables.js';

const TEXTS = [
  'My dog is called Rex and he loves the beach.',
  'Our cat Whiskers sleeps all day.',
  'I moved to a new city last spring.',
  'Take care of the plants while I am away.',
  'I want to learn the piano this year.',
  'Can you come to the party on Friday?',
  'She painted a face on the pumpkin.',
  'At the end of the sprint we ship the release.',
  '我喜欢吃北京烤鸭。',
  '东京的天气今天很好。',
  '私は毎朝コーヒーを飲みます。',
  '日本語の勉強は楽しいです。',
];

/** Each query word and the text it must find (by index into TEXTS). */
const MUST_FIND: Array<[string, number]> = [
  ['dog', 0],
  ['dogs', 0],
  ['cat', 1],
  ['cats', 1],
  ['city', 2],
  ['care', 3],
  ['want', 4],
  ['come', 5],
  ['face', 6],
  ['end', 7],
  ['烤鸭', 8],
  ['北京', 8],
  ['天气', 9],
  ['コーヒー', 10],
  ['勉強', 11],
];

describe('LanceDB full-text index', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-fts-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function seeded() {
    const store = createLanceDbStore({ path: join(dir, 'store') });
    await store.initMeta({ embedderId: 'none', dimensions: 0 });
    const records = TEXTS.map((text) => makeRecord({ dimensions: 0, text }));
    await store.insert({ records });
    return { store, ids: records.map((r) => r.id) };
  }

  async function hits(store: Awaited<ReturnType<typeof seeded>>['store'], query: string): Promise<string[]> {
    return (await store.searchText({ query, filter: { scopes: ['global'] }, limit: 5 })).map((h) => h.record.id);
  }

  it('finds every common English content word (and its plural) and Chinese/Japanese words', async () => {
    const { store, ids } = await seeded();
    try {
      for (const [word, index] of MUST_FIND) {
        expect({ word, hits: await hits(store, word) }).toEqual({ word, hits: [ids[index]] });
      }
    } finally {
      await store.close();
    }
  });

  it('drops English function words, so a question matches on its content words only', async () => {
    const { store, ids } = await seeded();
    try {
      for (const word of ['the', 'is', 'what', 'this', 'was', 'does', 'has'])
        expect({ word, hits: await hits(store, word) }).toEqual({ word, hits: [] });
      expect(await hits(store, "What's my dog called?")).toEqual([ids[0]]);
    } finally {
      await store.close();
    }
    expect(ENGLISH_STOP_WORDS).not.toContain('dog');
  });

  it('rebuilds the index of a store made with the old tokenizer on first open, and records the version', async () => {
    const path = join(dir, 'store');
    const { store, ids } = await seeded();
    await store.close();
    // Recreate what main built: LanceDB's built-in (multilingual) stop words, no version in the meta file.
    const db = await lancedb.connect(path);
    const table = await db.openTable('memories');
    await table.createIndex(COLUMNS.text, {
      config: lancedb.Index.fts({ baseTokenizer: 'icu', stem: true, language: 'English', lowercase: true, withPosition: true }),
      replace: true,
    });
    expect(await table.query().fullTextSearch(new lancedb.MatchQuery('dog', COLUMNS.text)).limit(5).toArray()).toEqual([]);
    table.close();
    db.close();
    const metaPath = join(path, META_FILE);
    const { ftsVersion: _drop, ...oldMeta } = JSON.parse(await readFile(metaPath, 'utf8')) as Record<string, unknown>;
    await writeFile(metaPath, JSON.stringify(oldMeta));

    const reopened = createLanceDbStore({ path });
    try {
      expect(await hits(reopened, 'dog')).toEqual([ids[0]]);
      expect(JSON.parse(await readFile(metaPath, 'utf8')).ftsVersion).toBe(FTS_INDEX_VERSION);
    } finally {
      await reopened.close();
    }
  });
});
