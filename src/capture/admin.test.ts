import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestHome, piSession, sessionsOf, tempDir } from '../../test/capture/helpers.js';
import { resetCursors, showCursors } from './admin.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('sessions and cursors', () => {
  it('lists sessions from L0, shows cursors, and a reset re-reads without duplicates', async () => {
    const home = join(tmp.dir, 'home');
    const root = join(tmp.dir, 'oc');
    for (const [agent, sid, n] of [
      ['main', 'a', 4],
      ['main', 'b', 2],
      ['ops', 'c', 3],
    ] as const) {
      mkdirSync(join(root, 'agents', agent, 'sessions'), { recursive: true });
      writeFileSync(join(root, 'agents', agent, 'sessions', `${sid}.jsonl`), piSession(sid, n));
    }
    await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    const sessions = await sessionsOf(home);
    expect(sessions.map((s) => [s.agentId, s.sessionId, s.messages]).sort()).toEqual([
      ['main', 'a', 4],
      ['main', 'b', 2],
      ['ops', 'c', 3],
    ]);
    expect((await sessionsOf(home, { agentId: 'ops' })).map((s) => s.sessionId)).toEqual(['c']);
    const cursors = await showCursors({ home });
    expect(cursors).toHaveLength(3);
    expect(cursors.every((c) => c.kind === 'file' && !c.pending && c.committed === c.size)).toBe(true);
    expect(await resetCursors({ home, pathPrefix: join(root, 'agents', 'ops') })).toEqual({ removed: 1 });
    const again = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(again.files).toMatchObject({ read: 1, unchanged: 2 });
    expect(again.messages).toMatchObject({ new: 0, duplicates: 3 });
  });
});
