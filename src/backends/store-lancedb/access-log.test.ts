import { appendFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRecord } from '../../../test/fixtures/store/records.js';
import { AccessLog } from './access-log.js';
import { createLanceDbStore } from './index.js';

const at = (day: number) => `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const one = (id: string, count: number, day: number) => new Map([[id, { count, at: at(day) }]]);

describe('access log (access statistics beside the table)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-access-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('adds increments to the table values and another reader sees the appends', async () => {
    const path = join(dir, 'access.jsonl');
    const a = new AccessLog({ path });
    const b = new AccessLog({ path });
    await a.add({ accesses: one('m1', 2, 3) });
    await b.add({ accesses: one('m1', 1, 2) });
    await a.refresh();
    expect(a.overlay('m1', { count: 4, at: at(1) })).toEqual({ count: 7, at: at(3) });
    expect(a.overlay('m2', { count: 4, at: at(1) })).toEqual({ count: 4, at: at(1) });
  });

  it('keeps a torn last line until it is complete', async () => {
    const path = join(dir, 'access.jsonl');
    const log = new AccessLog({ path });
    await appendFile(path, '{"id":"m1","count":3,"at":null}\n{"id":"m2","cou');
    await log.refresh();
    expect(log.get('m1')).toEqual({ count: 3, at: null });
    expect(log.get('m2')).toBeUndefined();
    await appendFile(path, 'nt":5,"at":null}\n');
    await log.refresh();
    expect(log.get('m2')).toEqual({ count: 5, at: null });
  });

  it('compacts past the size limit; readers that had read the old file reload', async () => {
    const path = join(dir, 'access.jsonl');
    const writer = new AccessLog({ path, compactBytes: 2_000 });
    const reader = new AccessLog({ path });
    for (let i = 1; i <= 60; i++) {
      await writer.add({
        accesses: new Map([
          ['m1', { count: 1, at: at((i % 28) + 1) }],
          ['m2', { count: 2, at: at(1) }],
        ]),
      });
      if (i === 5) await reader.refresh();
    }
    expect((await stat(path)).size).toBeLessThan(2_000);
    await reader.refresh();
    expect(reader.get('m1')).toEqual({ count: 60, at: at(28) });
    expect(reader.get('m2')).toEqual({ count: 120, at: at(1) });
  });

  it("reloads a file rewritten under the same inode (a file system reuses a replaced file's inode)", async () => {
    const path = join(dir, 'access.jsonl');
    const reader = new AccessLog({ path });
    await writeFile(path, `${JSON.stringify({ id: 'm1', count: 1, at: at(1) })}\n`);
    await reader.refresh();
    // Rewritten in place: same inode, longer, other first bytes.
    const rewritten = [{ generation: 'g2' }, { id: 'm1', count: 7, at: at(2) }, { id: 'm2', count: 1, at: at(2) }];
    await writeFile(path, `${rewritten.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await reader.refresh();
    expect(reader.get('m1')).toEqual({ count: 7, at: at(2) });
    expect(reader.get('m2')).toEqual({ count: 1, at: at(2) });
  });

  it('store: a touch in one store object is seen by another on the same folder, in reads and searches', async () => {
    const path = join(dir, 'store');
    const a = createLanceDbStore({ path });
    const b = createLanceDbStore({ path });
    try {
      await a.initMeta({ embedderId: 'none', dimensions: 0 });
      const rec = makeRecord({ text: 'the user prefers dark roast coffee', dimensions: 0 });
      await a.insert({ records: [rec] });
      await a.touch({ accesses: [{ id: rec.id, count: 3, at: at(5) }] });
      expect((await b.get({ ids: [rec.id] }))[0]).toMatchObject({ accessCount: 3, lastAccessedAt: at(5) });
      const [hit] = await b.searchText({ query: 'coffee', filter: { scopes: [rec.scope] }, limit: 5 });
      expect(hit?.record).toMatchObject({ accessCount: 3 });
      // b updates the record passing the overlaid count (and even a made-up one): the stored base
      // stays, so a later touch adds exactly once.
      const [current] = await b.get({ ids: [rec.id] });
      await b.update({ records: [{ ...current!, text: 'the user prefers medium roast coffee', vector: null, accessCount: 99 }] });
      expect((await a.get({ ids: [rec.id] }))[0]).toMatchObject({ accessCount: 3 });
      await a.touch({ accesses: [{ id: rec.id, count: 1, at: at(6) }] });
      const listed = await b.list({ filter: { scopes: [rec.scope] }, limit: 5 });
      expect(listed[0]).toMatchObject({ accessCount: 4, lastAccessedAt: at(6), text: 'the user prefers medium roast coffee' });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
