import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, renameSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IngestOptions } from '../../src/capture/ingest.js';
import { ingestHome, piHeader, piMessage, piSession, readL0, tempDir } from './helpers.js';

let tmp: ReturnType<typeof tempDir>;
let home: string;
let root: string;
let dir: string;
beforeEach(() => {
  tmp = tempDir();
  home = join(tmp.dir, 'home');
  root = join(tmp.dir, 'oc');
  dir = join(root, 'agents', 'main', 'sessions');
  mkdirSync(dir, { recursive: true });
});
afterEach(() => tmp.cleanup());

const run = (extra: Partial<Omit<IngestOptions, 'log'>> = {}) => ingestHome({ home, sources: [{ kind: 'openclaw', root }], ...extra });

async function expectExactlyOnce(ids: number[]): Promise<void> {
  const records = await readL0(home);
  const got = records.map((r) => r.id).sort();
  const want = ids.map((i) => `e${i.toString(16).padStart(7, '0')}`).sort();
  expect(got).toEqual(want);
}
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('faults and bad input', () => {
  it('partial last line: waits for the newline, then records the message once', async () => {
    const path = join(dir, 's.jsonl');
    const line = piMessage(3, 'user', 'finish me later');
    writeFileSync(path, piSession('s', 3) + line.slice(0, 40));
    await run();
    await expectExactlyOnce(range(0, 3));
    appendFileSync(path, `${line.slice(40)}\n`);
    await run();
    await expectExactlyOnce(range(0, 4));
  });

  it('truncation: re-scans from the start and records only the new messages', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, piSession('s', 20));
    await run();
    writeFileSync(path, piSession('s', 5) + piSession('s', 2, 100).split('\n').slice(0).join('\n'));
    const s = await run();
    expect(s.files.rescanned).toEqual({ truncated: 1 });
    expect(s.messages).toMatchObject({ new: 2, duplicates: 5 });
    await expectExactlyOnce([...range(0, 20), 100, 101]);
  });

  it('rotation: a new file (new inode) at the same path is read from the start', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, piSession('s', 10));
    await run();
    renameSync(path, join(dir, 's.jsonl.reset.2026-02-26T00-44-15.879Z'));
    writeFileSync(path, piSession('s', 30, 10).replace(/^/, `${piHeader('s')}\n`));
    const s = await run();
    expect(s.files.rescanned).toEqual({ rotated: 1 });
    expect(s.messages.new).toBe(30);
    // The archive holds the old messages: included on request, deduped against what L0 has.
    const withArchives = await run({ includeArchives: true });
    expect(withArchives.messages).toMatchObject({ new: 0, duplicates: 10 });
    await expectExactlyOnce(range(0, 40));
  });

  it('whole-file rewrite (pi v1 -> v3 migration re-numbers entries): no duplicates, new messages recorded', async () => {
    const path = join(dir, 's.jsonl');
    const v1 = (i: number) =>
      JSON.stringify({
        type: 'message',
        timestamp: new Date(1_765_000_000_000 + i).toISOString(),
        message: { role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `old ${i}` }], timestamp: 1_765_000_000_000 + i },
      });
    writeFileSync(
      path,
      `${JSON.stringify({ type: 'session', id: 's', timestamp: '2025-12-08T00:00:00Z', cwd: '/' })}\n${range(0, 6).map(v1).join('\n')}\n`,
    );
    expect((await run()).messages.new).toBe(6);
    // Migration rewrites the file in place: header v3, ids added; then a new turn is appended.
    const v3 = range(0, 6).map((i) => {
      const entry = JSON.parse(v1(i)) as Record<string, unknown>;
      return JSON.stringify({ ...entry, id: `m${i}`, parentId: i ? `m${i - 1}` : null });
    });
    writeFileSync(path, `${piHeader('s')}\n${v3.join('\n')}\n${piMessage(6, 'user', 'brand new')}\n`);
    const s = await run();
    expect(s.files.rescanned).toEqual({ rewritten: 1 });
    expect(s.messages).toMatchObject({ new: 1, duplicates: 6 });
    expect((await readL0(home)).map((r) => r.content)).toEqual([...range(0, 6).map((i) => `old ${i}`), 'brand new']);
  });

  it('a file deleted mid-run or between discovery and read is normal, not an error', async () => {
    writeFileSync(join(dir, 'a.jsonl'), piSession('a', 5000));
    writeFileSync(join(dir, 'b.jsonl'), piSession('b', 10));
    let deleted = false;
    const s = await run({
      onRecords: () => {
        // After the first chunk of a.jsonl reaches L0, delete both files.
        if (deleted) return;
        deleted = true;
        unlinkSync(join(dir, 'a.jsonl'));
        unlinkSync(join(dir, 'b.jsonl'));
      },
    });
    expect(s.errors).toEqual([]);
    expect(s.files.vanished).toBe(1); // b.jsonl
    // a.jsonl was open: Unix keeps its bytes readable, so it is read to the end.
    expect(s.messages.new).toBe(5000);
    const again = await run();
    expect(again.errors).toEqual([]);
    expect(again.files.found).toBe(0);
  });

  it('malformed JSON, a 10 MB line, binary garbage and invalid UTF-8 are skipped and counted', async () => {
    const path = join(dir, 's.jsonl');
    const parts: Buffer[] = [
      Buffer.from(`${piMessage(0, 'user', 'before the junk')}\n`),
      Buffer.from('{"type":"message","id":"x", this is not json\n'),
      Buffer.from(`${JSON.stringify({ type: 'message', id: 'big', message: { role: 'user', content: 'y'.repeat(10 * 1024 * 1024) } })}\n`),
      Buffer.from([0x00, 0x01, 0x02, 0xde, 0xad, 0xbe, 0xef, 0x7b, 0x0a]), // binary, not UTF-8
      Buffer.from([0x00, 0x01, 0x02, 0x1b, 0x7b, 0x7f, 0x0a]), // binary that happens to decode
      Buffer.concat([
        Buffer.from('{"type":"message","id":"u8","message":{"role":"user","content":"bad '),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}\n'),
      ]),
      Buffer.from(`${piMessage(1, 'assistant', 'after the junk')}\n`),
    ];
    writeFileSync(path, Buffer.concat(parts));
    const s = await run({ maxLineBytes: 1024 * 1024 });
    expect(s.errors).toEqual([]);
    expect(s.skippedLines).toMatchObject({ malformed: 2, oversized: 1, 'invalid-utf8': 2 });
    await expectExactlyOnce([0, 1]);
    // With the default 8 MiB line limit the 10 MB line is still skipped, and a re-run adds nothing.
    rmSync(home, { recursive: true });
    const d = await run();
    expect(d.skippedLines.oversized).toBe(1);
    await expectExactlyOnce([0, 1]);
  });

  it('a writer appending (sometimes in halves) while ingest runs: every message exactly once', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${piHeader('s')}\n`);
    const writer = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'writer-child.ts'), path, '0', '3000'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const done = new Promise<void>((resolve, reject) => {
      writer.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
    });
    let finished = false;
    void done.then(() => {
      finished = true;
    });
    let runs = 0;
    while (!finished) {
      await run();
      runs += 1;
    }
    await done;
    await run();
    await expectExactlyOnce(range(0, 3000));
    expect(runs).toBeGreaterThan(1);
  });

  it('a truncated-to-zero then regrown file is read again without duplicates', async () => {
    const path = join(dir, 's.jsonl');
    writeFileSync(path, piSession('s', 4));
    await run();
    truncateSync(path, 0);
    expect((await run()).messages.new).toBe(0);
    writeFileSync(path, piSession('s', 6));
    expect((await run()).messages).toMatchObject({ new: 2, duplicates: 4 });
  });
});
