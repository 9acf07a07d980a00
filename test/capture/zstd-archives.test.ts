import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readZstdLines } from '../../src/capture/zstd-lines.js';
import { ingestHome, piSession, readL0, tempDir } from './helpers.js';

const FIX = join(import.meta.dirname, 'fixtures');
const PI_ARCHIVE = '01a1ffe8-61a4-73a3-957f-3bae83c2af8d.jsonl.reset.2026-11-21T21-00-00.000Z.zst';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('zstd-compressed OpenClaw archives', () => {
  it('streams the lines of a multi-block archive exactly', async () => {
    const got: string[] = [];
    for await (const chunk of readZstdLines({ path: join(FIX, 'zstd', 'session-3000.jsonl.zst') })) {
      for (const line of chunk.lines) got.push(line.text ?? `<${line.skipped}>`);
    }
    expect(got).toEqual(piSession('z', 3000).trimEnd().split('\n'));
  });

  it('are read whole with --include-archives, skipped otherwise, and not re-read when unchanged', async () => {
    const home = join(tmp.dir, 'home');
    const root = join(tmp.dir, 'oc');
    const dir = join(root, 'agents', 'main', 'sessions');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(FIX, 'pi', PI_ARCHIVE), join(dir, PI_ARCHIVE));
    copyFileSync(join(FIX, 'zstd', 'session-3000.jsonl.zst'), join(dir, 'z.jsonl.deleted.2026-03-14T23-42-00.310Z.zst'));
    expect((await ingestHome({ home, sources: [{ kind: 'openclaw', root }] })).files.found).toBe(0);
    const s = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], includeArchives: true });
    expect(s.errors).toEqual([]);
    expect(s.messages.new).toBe(3008); // 3006 messages and the 2 summaries of the pi archive (kept as role summary)
    const records = await readL0(home);
    expect(records.filter((r) => r.sessionId === '01a1ffe8-61a4-73a3-957f-3bae83c2af8d').map((r) => r.content)[0]).toBe(
      'Please set up the deploy script for staging.',
    );
    expect(records.filter((r) => r.sessionId === 'z')).toHaveLength(3000);
    const again = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], includeArchives: true });
    expect(again.files).toMatchObject({ unchanged: 2, read: 0 });
  });
});
