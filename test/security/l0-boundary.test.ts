/**
 * The L0 log as `Strata.open` wires it redacts every record at its boundary, whatever path
 * appends: records handed over as they are (`appendConversation`, which skips the capture
 * cleaner) keep no planted secret in content, session key, session id or message id on disk, and
 * lookups by the original record still find what was stored.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { L0Record } from '../../src/spec/conversation.js';
import { openStrata, removeDir, tempDir } from '../distill/helpers.js';
import { plantAll } from './secret-corpus.js';

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await removeDir(dirs.pop()!);
});

describe('L0 boundary redaction', () => {
  it('appendConversation stores no planted secret in any field, and `has` finds the record by its original', async () => {
    const home = await tempDir();
    dirs.push(home);
    const planted = plantAll();
    const records: L0Record[] = planted.map((p, i) => ({
      // Ids carry the whole planted sentence: a bare value without its context is not recognisable as a secret.
      id: p.text,
      sessionKey: `agent:main:${p.text}`,
      sessionId: p.text,
      agentId: 'main',
      host: 'jsonl',
      role: 'user',
      content: p.text,
      timestamp: Date.parse('2026-01-05T10:00:00Z') + i * 1000,
      recordedAt: '2026-01-05T10:00:00.000Z',
    }));
    const strata = await openStrata(home);
    try {
      const appended = await strata.appendConversation({ records });
      expect(appended.written).toBe(records.length);
      expect(await strata.l0.has({ record: records[0]! })).toBe(true);
      // The same records again are duplicates: dedupe sees the stored (redacted) form.
      expect((await strata.appendConversation({ records })).duplicates).toBe(records.length);
    } finally {
      await strata.close();
    }
    const dir = join(home, 'conversations');
    let disk = '';
    for (const f of await readdir(dir)) if (f.endsWith('.jsonl')) disk += await readFile(join(dir, f), 'utf8');
    expect(disk.length).toBeGreaterThan(0);
    const leaked = planted.filter((p) => disk.includes(p.secret) || disk.includes(JSON.stringify(p.secret).slice(1, -1)));
    expect(leaked.map((p) => p.kind)).toEqual([]);
  });
});
