import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestHome, readL0, tempDir } from './helpers.js';

/** Sessions written by pi's real SessionManager (see fixtures/pi/README.md). */
const PI = join(import.meta.dirname, 'fixtures', 'pi');
const GENERATED = '2026-11-21T20-59-41-860Z_01a1ffe8-61a4-73a3-957f-3bae83c2af8d.jsonl';

let tmp: ReturnType<typeof tempDir>;
let home: string;
let root: string;
let dir: string;
beforeEach(() => {
  tmp = tempDir();
  home = join(tmp.dir, 'home');
  root = join(tmp.dir, 'state');
  dir = join(root, 'agents', 'main', 'sessions');
  mkdirSync(dir, { recursive: true });
});
afterEach(() => tmp.cleanup());

describe('sessions written by pi SessionManager', () => {
  it('a v3 session with every entry kind: only the conversation lands in L0, cleaned', async () => {
    copyFileSync(join(PI, 'generated-v3.jsonl'), join(dir, GENERATED));
    const s = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(s.errors).toEqual([]);
    const records = await readL0(home);
    expect(records.map((r) => `${r.role}: ${r.content}`)).toEqual([
      'user: Please set up the deploy script for staging.',
      'assistant: The staging deploy script is ready: run ./deploy.sh staging.',
      // Compaction and branch summaries are kept as their own role (contract 5).
      'summary: User set up a staging deploy script.',
      'user: Now also add a production target, with a confirmation prompt.',
      'assistant: Added a production target that asks for confirmation first.',
      'summary: Abandoned path: production target.',
      'user: Actually, use a Makefile instead of a shell script.',
      'assistant: Switched to a Makefile with a deploy-staging target.',
    ]);
    expect(records[0]!.sessionId).toBe('01a1ffe8-61a4-73a3-957f-3bae83c2af8d');
    expect(s.stripped['relevant-memories']).toBe(1);
    expect(s.noise).toMatchObject({ 'delivery-mirror': 1, 'no-reply': 1, injected: 1, role: 2, empty: 2 });
    expect(s.noise['compaction-summary']).toBeUndefined();
  });

  it('a v1 file migrated in place by pi (ids added, whole file rewritten) is re-scanned without duplicates', async () => {
    const path = join(dir, '5f0e1d2c-0000-4000-8000-000000000001.jsonl');
    copyFileSync(join(PI, 'v1-before-migration.jsonl'), path);
    const first = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(first.messages.new).toBe(5); // 4 messages and the compaction summary
    writeFileSync(path, readFileSync(join(PI, 'v3-after-migration.jsonl')));
    const second = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(second.files.rescanned).toEqual({ rewritten: 1 });
    expect(second.messages).toMatchObject({ new: 2, duplicates: 5 });
    expect((await readL0(home)).map((r) => r.content)).toEqual([
      'Remember that the staging database lives on db-staging-2.',
      'Noted: staging database is db-staging-2.',
      'And production is db-prod-1.',
      'Databases discussed.', // the compaction summary, kept once across the rewrite
      'Production database is db-prod-1.',
      'What about the cache host?',
      'The cache host is redis-3.',
    ]);
  });
});
