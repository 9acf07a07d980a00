/**
 * Strata as a shared service across real network hops: PostgreSQL on this host, two `strata serve`
 * on two other hosts (Linux network namespaces on a bridge) bound to their own non-loopback
 * addresses, and the `strata` CLI on a third host in remote mode. Agents write through both servers
 * at once and read through the other: nothing lost, nothing duplicated, no scope leak. A server
 * unplugged from the network fails its clients fast while the other keeps taking writes; plugged
 * back in, it serves them.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, netnsUnavailable, type Network } from '../support/netns.js';
import { startPostgres, stopPostgres, type PostgresServerInfo } from '../support/postgres-server.js';
import { runCli } from '../support/run-cli.js';
import { spawnServer, type SpawnedServer } from '../hosts/spawn-server.js';

const unavailable = await netnsUnavailable();
if (unavailable && process.env.CI) throw new Error(`CI must run the multi-host test: ${unavailable}`);

const AGENTS = ['alice', 'bob', 'carol'] as const;
const PER_AGENT = 12;
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(url: string, token: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, json: await res.json() };
}

let net: Network;
let db: PostgresServerInfo;
let dir: string;
let dbUrl: string;
const servers: SpawnedServer[] = [];
const tokens: Record<string, string> = {};

describe.skipIf(unavailable !== undefined)('strata serve on two hosts, PostgreSQL on a third, a CLI on a fourth', () => {
  beforeAll(async () => {
    net = await createNetwork(['a', 'b', 'c']);
    db = await startPostgres({ tcp: { port: 0, host: net.gatewayIp, allowFrom: net.cidr } });
    dbUrl = `postgresql://postgres@${net.gatewayIp}:${db.tcpPort}/postgres`;
    dir = await mkdtemp(join(tmpdir(), 'strata-multihost-'));
    const env = { STRATA_POSTGRES_URL: dbUrl, STRATA_HTTP_TOKEN: '' };
    for (const name of ['a', 'b']) {
      const home = join(dir, name);
      await mkdir(home, { recursive: true });
      const config = {
        store: { provider: 'postgres', postgres: { schema: 'team' } },
        embedder: { provider: 'none' },
        llm: { provider: 'none' },
      };
      await writeFile(join(home, 'config.json'), JSON.stringify(config));
    }
    // Tokens are made on host a, over the network to the database.
    for (const agent of AGENTS) {
      const out = await runCli(['--home', join(dir, 'a'), '--json', 'tokens', 'create', '--agent', agent], {
        env,
        prefix: net.hosts.a!.exec,
      });
      expect(out.code, out.stderr).toBe(0);
      tokens[agent] = (JSON.parse(out.stdout) as { token: string }).token;
    }
    for (const name of ['a', 'b'] as const) {
      const host = net.hosts[name]!;
      servers.push(await spawnServer(['--home', join(dir, name), 'serve', '--host', host.ip, '--port', '0'], env, host.exec));
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (db) await stopPostgres(db);
    if (dir) await rm(dir, { recursive: true, force: true });
    await net?.destroy();
  });

  it('each server listens on its own host address, not on loopback', () => {
    expect(servers.map((s) => new URL(s.url).hostname)).toEqual([net.hosts.a!.ip, net.hosts.b!.ip]);
  });

  it('loses nothing, duplicates nothing and leaks no scope with writers on both hosts', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    const written: Record<string, string[]> = {};
    const leaks: string[] = [];
    await Promise.all(
      AGENTS.flatMap((agent) => {
        written[agent] = [];
        return [0, 1].map(async (lane) => {
          for (let i = lane; i < PER_AGENT; i += 2) {
            const text = `${agent} note ${i}: host ${lane === 0 ? 'a' : 'b'} wrote rack ${agent}-${i * 7919}`;
            const res = await api(lane === 0 ? a : b, tokens[agent]!, '/ops/remember', { text });
            expect(res.status, JSON.stringify(res.json)).toBe(200);
            written[agent]!.push(res.json.result.id);
            const seen = await api(lane === 0 ? b : a, tokens[agent]!, '/ops/recall', { query: 'note rack wrote', limit: 50 });
            for (const hit of seen.json.result.results as Array<{ record: { scope: string } }>)
              if (hit.record.scope !== 'global' && hit.record.scope !== `agent:${agent}`) leaks.push(`${agent} saw ${hit.record.scope}`);
          }
        });
      }),
    );
    expect(leaks).toEqual([]);
    for (const agent of AGENTS) {
      for (const url of [a, b]) {
        const listed = await api(url, tokens[agent]!, '/ops/list', { limit: 200 });
        const ids = (listed.json.result.memories as Array<{ id: string }>).map((m) => m.id);
        expect(ids.sort()).toEqual([...written[agent]!].sort());
      }
    }
    const client = new pg.Client({ connectionString: dbUrl });
    await client.connect();
    try {
      const rows = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM team.memories');
      expect(rows.rows[0]!.n).toBe(AGENTS.length * PER_AGENT);
    } finally {
      await client.end();
    }
  }, 180_000);

  it('the CLI on a fourth host writes through one server and recalls through the other, keeping nothing locally', async () => {
    const home = join(dir, 'c');
    await mkdir(home, { recursive: true });
    const on = (url: string, args: string[]) =>
      runCli(['--home', home, '--json', ...args], { env: { STRATA_URL: url, STRATA_TOKEN: tokens.bob! }, prefix: net.hosts.c!.exec });
    const add = await on(servers[0]!.url, ['add', 'Bob keeps the on-call rota in the teal spreadsheet']);
    expect(add.code, add.stderr).toBe(0);
    const found = await on(servers[1]!.url, ['recall', 'on-call rota spreadsheet']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('teal spreadsheet');
    expect(await readdir(home)).toEqual([]);
  }, 120_000);

  it('an unplugged server fails fast for its clients while the other keeps writing; plugged back, it serves them', async () => {
    const [a, b] = servers.map((s) => s.url) as [string, string];
    await net.hosts.a!.unplug(true);
    try {
      await expect(fetch(`${a}/api/v1/whoami`, { signal: AbortSignal.timeout(1_500) })).rejects.toThrow();
      const res = await api(b, tokens.carol!, '/ops/remember', { text: 'Carol moved the standup to 9:45 while host a was offline' });
      expect(res.status).toBe(200);
    } finally {
      await net.hosts.a!.unplug(false);
    }
    const listed = await api(a, tokens.carol!, '/ops/list', { limit: 200 });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.json)).toContain('while host a was offline');
  }, 120_000);
});
