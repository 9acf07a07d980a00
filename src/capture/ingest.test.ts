import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, ingestHome, piMessage, piSession, readL0, tempDir } from '../../test/capture/helpers.js';
import { CursorStore, cursorKey } from './cursor-store.js';

let tmp: ReturnType<typeof tempDir>;
let home: string;
beforeEach(() => {
  tmp = tempDir();
  home = join(tmp.dir, 'home');
});
afterEach(() => tmp.cleanup());

function openClawSession(agent: string, sessionId: string, content: string): string {
  const dir = join(tmp.dir, 'oc', 'agents', agent, 'sessions');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${sessionId}.jsonl`);
  writeFileSync(path, content);
  return path;
}

describe('ingest', () => {
  it('writes every host fixture to the daily L0 log, once, and a second run finds nothing new', async () => {
    const sources = [
      { kind: 'openclaw' as const, root: copyFixture('openclaw', tmp.dir) },
      { kind: 'claude-code' as const, root: copyFixture('claude-code', tmp.dir) },
      { kind: 'codex' as const, root: copyFixture('codex', tmp.dir) },
    ];
    const first = await ingestHome({ home, sources });
    expect(first.errors).toEqual([]);
    expect(first.files).toMatchObject({ found: 3, read: 3 });
    const records = await readL0(home);
    expect(records).toHaveLength(first.messages.new);
    const byHost = (h: string) => records.filter((r) => r.host === h);
    expect(byHost('openclaw').map((r) => r.role)).toEqual(['user', 'assistant']);
    expect(byHost('codex').map((r) => r.content)).toEqual(['what is 2+2? just give me the answer', '4']);
    expect(byHost('claude-code').length).toBeGreaterThan(50);
    const line = records[0]!;
    expect(Object.keys(line).sort()).toEqual([
      'agentId',
      'content',
      'host',
      'id',
      'recordedAt',
      'role',
      'sessionId',
      'sessionKey',
      'timestamp',
    ]);
    expect(first.noise.role).toBeGreaterThan(0); // tool results are not conversation
    // The Claude Code compaction summary (isCompactSummary) is kept as role `summary`.
    expect(byHost('claude-code').filter((r) => r.role === 'summary')).toHaveLength(1);
    expect(byHost('claude-code').find((r) => r.role === 'summary')?.content).toMatch(/^This session is being continued/);
    expect(first.skippedLines['ignored-type']).toBeGreaterThan(1000);
    const day = new Date().toISOString().slice(0, 10);
    expect(
      readFileSync(join(home, 'conversations', `${day}.jsonl`), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(records.length);

    const second = await ingestHome({ home, sources });
    expect(second.files).toMatchObject({ read: 0, unchanged: 3 });
    expect(second.messages.new).toBe(0);
    expect(await readL0(home)).toHaveLength(records.length);
  });

  it('reads only what was appended since the last run', async () => {
    const path = openClawSession('main', 's1', piSession('s1', 10));
    const root = join(tmp.dir, 'oc');
    expect((await ingestHome({ home, sources: [{ kind: 'openclaw', root }] })).messages.new).toBe(10);
    appendFileSync(path, piSession('s1', 5, 10));
    const second = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(second.messages).toEqual({ parsed: 5, new: 5, duplicates: 0 });
    expect((await readL0(home)).map((r) => r.id)).toHaveLength(15);
  });

  it('--from-now starts new cursors at the last line boundary', async () => {
    const path = openClawSession('main', 's1', piSession('s1', 10) + '{"partial');
    const root = join(tmp.dir, 'oc');
    const first = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], fromNow: true });
    expect(first.files.startedFromNow).toBe(1);
    expect(await readL0(home)).toHaveLength(0);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\{"partial$/, '') + piSession('s1', 2, 50));
    const second = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], fromNow: true });
    expect(second.messages.new).toBe(2);
  });

  it('never ingests skipped agents (the distiller by default) and honours --agent', async () => {
    openClawSession('strata-distiller', 'd1', piSession('d1', 4));
    openClawSession('ops', 'o1', piSession('o1', 4));
    openClawSession('main', 'm1', piSession('m1', 4));
    const root = join(tmp.dir, 'oc');
    const all = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(all.files.skippedAgent).toBe(1);
    expect(new Set((await readL0(home)).map((r) => r.agentId))).toEqual(new Set(['ops', 'main']));
    const home2 = join(tmp.dir, 'home2');
    await ingestHome({ home: home2, sources: [{ kind: 'openclaw', root }], agentId: 'ops' });
    expect(new Set((await readL0(home2)).map((r) => r.agentId))).toEqual(new Set(['ops']));
  });

  it('dry run counts what would be written and writes nothing', async () => {
    openClawSession('main', 's1', piSession('s1', 6));
    const summary = await ingestHome({ home, sources: [{ kind: 'openclaw', root: join(tmp.dir, 'oc') }], dryRun: true });
    expect(summary.messages.new).toBe(6);
    expect(await readL0(home)).toHaveLength(0);
    expect(await new CursorStore({ home }).load()).toEqual({});
  });

  it('caps bytes per run and continues where it stopped on the next run', async () => {
    openClawSession('main', 'a', piSession('a', 200));
    openClawSession('main', 'b', piSession('b', 200));
    const root = join(tmp.dir, 'oc');
    const runs: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const s = await ingestHome({ home, sources: [{ kind: 'openclaw', root }], maxBytesPerRun: 8_000 });
      runs.push(s.messages.new);
      expect(s.bytesRead).toBeLessThan(8_000 + 1_000);
      if (s.messages.new === 0 && s.files.deferred === 0) break;
    }
    expect(runs.length).toBeGreaterThan(3);
    const records = await readL0(home);
    expect(records).toHaveLength(400);
    expect(new Set(records.map((r) => `${r.sessionId}/${r.id}`)).size).toBe(400);
  });

  it('processes a batch a crashed run left pending again, without duplicates', async () => {
    const path = openClawSession('main', 's1', piSession('s1', 8));
    const root = join(tmp.dir, 'oc');
    await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    // Simulate a crash after staging the next batch (and after its records reached L0).
    appendFileSync(path, piSession('s1', 4, 8));
    const store = new CursorStore({ home });
    const key = cursorKey('openclaw', path);
    const cursor = (await store.get(key))!;
    await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    await store.stage({ key, cursor: { ...cursor }, pendingOffset: cursor.committed + 100, batchId: 'crashed' });
    const rerun = await ingestHome({ home, sources: [{ kind: 'openclaw', root }] });
    expect(rerun.files.recoveredBatches).toBe(1);
    expect(rerun.messages).toMatchObject({ new: 0, duplicates: 4 });
    expect((await store.get(key))!.pending).toBeNull();
    expect(await readL0(home)).toHaveLength(12);
  });

  it('reads only the files named in `only` (a hook passing its transcript path)', async () => {
    const a = openClawSession('main', 'a', piSession('a', 3));
    openClawSession('main', 'b', piSession('b', 3));
    const s = await ingestHome({ home, sources: [{ kind: 'openclaw', root: join(tmp.dir, 'oc'), only: [a] }] });
    expect(s.files.found).toBe(1);
    expect(new Set((await readL0(home)).map((r) => r.sessionId))).toEqual(new Set(['a']));
  });

  it('reads generic JSONL from a path with the given agent id', async () => {
    const dir = join(tmp.dir, 'custom');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'run.jsonl'),
      `${JSON.stringify({ role: 'user', content: 'remember the blue door' })}\n${piMessage(1, 'user', 'pi lines are not generic')}\n`,
    );
    const s = await ingestHome({ home, sources: [{ kind: 'jsonl', root: dir }], agentId: 'bot' });
    expect(s.messages.new).toBe(1);
    expect((await readL0(home))[0]).toMatchObject({ agentId: 'bot', host: 'jsonl', content: 'remember the blue door' });
  });
});
