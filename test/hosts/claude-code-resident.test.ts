/**
 * The resident Strata process as its clients see it: started on demand (once, even when many
 * callers race), local only (socket and files readable by the owner alone, a token on every
 * request), replaced when other code asks, gone when idle.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHome } from '../../src/config/load.js';
import { callResident, readResidentInfo, ResidentCallError, ResidentUnavailableError } from '../../src/resident/client.js';
import { resolveHomeLight, residentPaths } from '../../src/resident/protocol.js';
import { residentCommand, residentStamp } from '../../src/resident/stamp.js';
import { stopResident } from './claude-code-helpers.js';

let root: string;
let home: string;
const stamp = residentStamp();
const env = { ...process.env, LANCEDB_LOG: 'error', STRATA_RESIDENT_IDLE_MS: '120000' };

function start(options: { stamp?: string; env?: NodeJS.ProcessEnv } = {}) {
  const s = options.stamp ?? stamp;
  return { ...residentCommand({ home, stamp: s }), env: options.env ?? env };
}

function ping(options: { stamp?: string; env?: NodeJS.ProcessEnv; withStart?: boolean } = {}) {
  const s = options.stamp ?? stamp;
  return callResident({
    home,
    stamp: s,
    op: 'ping',
    deadline: Date.now() + 60_000,
    start: options.withStart === false ? undefined : start(options),
  });
}

async function mode(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'strata-resident-'));
  home = root;
  await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
});
afterEach(async () => {
  await stopResident(home);
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe('resident Strata process', () => {
  it('starts once for many racing callers; only its owner can reach it', async () => {
    await expect(ping({ withStart: false })).rejects.toBeInstanceOf(ResidentUnavailableError);
    const answers = await Promise.all(Array.from({ length: 4 }, () => ping()));
    const pids = new Set(answers.map((a) => (a.result as { pid: number }).pid));
    expect(pids.size).toBe(1);
    expect(answers.some((a) => a.started)).toBe(true);

    const paths = residentPaths(home);
    expect(await mode(paths.dir)).toBe(0o700);
    expect(await mode(paths.socket)).toBe(0o600);
    expect(await mode(paths.info)).toBe(0o600);
    // A request without the home's token is refused.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(paths.socket, () => socket.write(JSON.stringify({ v: 1, id: 7, token: 'guess', op: 'ping' }) + '\n'));
      socket.on('data', (d) => {
        resolve(d.toString());
        socket.destroy();
      });
    });
    expect(JSON.parse(refused)).toMatchObject({ id: 7, ok: false, error: { code: 'RESIDENT_FORBIDDEN' } });
    const again = await ping();
    expect(again.started).toBe(false);
  });

  it('answers unknown operations with a typed error', async () => {
    await expect(callResident({ home, stamp, op: 'no-such-op', deadline: Date.now() + 60_000, start: start() })).rejects.toMatchObject({
      code: 'UNKNOWN_OPERATION',
    });
    await expect(callResident({ home, stamp, op: 'no-such-op', deadline: Date.now() + 60_000 })).rejects.toBeInstanceOf(ResidentCallError);
  });

  it('a caller running other code replaces the resident; an idle resident leaves and cleans up', async () => {
    const first = (await ping()).result as { pid: number };
    const other = await ping({ stamp: `${stamp}-newer`, env: { ...env, STRATA_RESIDENT_IDLE_MS: '1500' } });
    const second = other.result as { pid: number; stamp: string };
    expect(other.started).toBe(true);
    expect(second.pid).not.toBe(first.pid);
    expect(second.stamp).toBe(`${stamp}-newer`);
    // Idle for 1.5 s: it exits and removes its info file and socket.
    await expect.poll(async () => (await readResidentInfo(home)) === undefined, { timeout: 20_000, interval: 200 }).toBe(true);
    await expect(stat(residentPaths(home).socket)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(residentPaths(home).log, 'utf8')).toMatch(/stopping: idle/);
  });

  it('after the resident is killed (-9), the next caller starts a new one at once, not after the lock goes stale', async () => {
    const first = (await ping()).result as { pid: number };
    process.kill(first.pid, 'SIGKILL');
    await expect
      .poll(
        () => {
          try {
            process.kill(first.pid, 0);
            return true;
          } catch {
            return false;
          }
        },
        { timeout: 10_000 },
      )
      .toBe(false);
    // The lock would only go stale after 30 s; the dead holder's pid file lets the next one take it now.
    const second = await callResident({ home, stamp, op: 'ping', deadline: Date.now() + 15_000, start: start() });
    expect((second.result as { pid: number }).pid).not.toBe(first.pid);
  });

  it('a home too long for a unix socket is served on loopback TCP with the same token check', async () => {
    home = join(root, 'x'.repeat(120));
    await mkdir(home);
    await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    await ping();
    expect((await readResidentInfo(home))?.endpoint).toMatchObject({ kind: 'tcp', host: '127.0.0.1' });
  });

  it('serves the operations table for a caller: the same validation and scope rules as every host', async () => {
    const run = (agentId: string | undefined, name: string, input: unknown) =>
      callResident({
        home,
        stamp,
        op: 'ops.run',
        caller: { agentId },
        input: { name, input },
        deadline: Date.now() + 60_000,
        start: start(),
      }).then((r) => r.result);
    await run('coder', 'remember', { text: 'The staging cluster is called heronbase.' });
    const mine = (await run('coder', 'list', {})) as { memories: Array<{ text: string; scope: string }> };
    expect(mine.memories).toEqual([expect.objectContaining({ text: 'The staging cluster is called heronbase.', scope: 'agent:coder' })]);
    const stranger = (await run('other', 'list', {})) as { memories: unknown[] };
    expect(stranger.memories).toEqual([]);
    await expect(run('coder', 'list', { scope: 'agent:other' })).rejects.toMatchObject({ code: 'FORBIDDEN_SCOPE' });
    await expect(run('coder', 'no-such-op', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('finds the home exactly as the config loader does', () => {
    const e = { HOME: '/home/u', STRATA_HOME: '' };
    for (const [flag, strataHome] of [
      [undefined, undefined],
      ['~/x', undefined],
      [undefined, '/srv/strata'],
      ['rel/dir', '/ignored'],
      ['  ', ' ~ '],
    ] as const) {
      const environment = { ...e, ...(strataHome !== undefined ? { STRATA_HOME: strataHome } : {}) };
      expect(resolveHomeLight({ home: flag, env: environment })).toBe(resolveHome({ home: flag, env: environment }));
    }
  });
});
