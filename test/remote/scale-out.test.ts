/**
 * Scale out: two real `strata serve` processes (two homes, as on two machines) on one PostgreSQL
 * database, nothing shared but the database. Several agents, each with its own token, write and
 * read over HTTP through both servers at once: nothing lost, nothing duplicated, no scope leak;
 * a token made on one machine works on the other, and a revocation applies to both.
 */
import { writeFile, mkdtemp, rm, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { testPostgres } from '../support/postgres.js';
import { startServe, type ServeProcess } from './serve-process.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

const AGENTS = ['alice', 'bob', 'carol'] as const;
const PER_AGENT = 24;
const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kelp', 'lagoon'];

function fact(agent: string, i: number): string {
  // Distinct words per fact, so no two facts are near-duplicates of each other.
  return `${agent} fact ${i}: the ${WORDS[i % WORDS.length]} ${WORDS[(i * 5 + 3) % WORDS.length]} service number ${i * 7919} runs in rack ${agent}-${i}`;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(url: string, token: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe.skipIf(!pg)('two strata serve processes on one PostgreSQL database', () => {
  it('lose nothing, duplicate nothing, leak no scope; tokens and revocations are shared', async () => {
    const schema = pg!.schemaName('scale');
    const dir = await mkdtemp(join(tmpdir(), 'strata-scale-'));
    const env = { STRATA_POSTGRES_URL: pg!.url, STRATA_HTTP_TOKEN: '' };
    const homes = [join(dir, 'machine-a'), join(dir, 'machine-b')];
    for (const home of homes) {
      await mkdir(home, { recursive: true });
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({
          store: { provider: 'postgres', postgres: { schema } },
          embedder: { provider: 'none' },
          llm: { provider: 'none' },
        }),
      );
    }
    const servers: ServeProcess[] = [];
    try {
      // Tokens are made on machine A, before the servers start...
      const token = async (home: string, agent: string) => {
        const out = await runCli(['--home', home, '--json', 'tokens', 'create', '--agent', agent], { env });
        expect(out.code, out.stderr).toBe(0);
        return JSON.parse(out.stdout) as { token: string; id: string };
      };
      const tokens: Record<string, string> = {};
      for (const agent of AGENTS) tokens[agent] = (await token(homes[0]!, agent)).token;
      servers.push(...(await Promise.all(homes.map((home) => startServe(['--home', home], env)))));
      const [a, b] = servers.map((s) => s.url) as [string, string];

      // Every agent writes through both servers at once, reading back through the other one between writes.
      const written: Record<string, string[]> = {};
      const leaks: string[] = [];
      await Promise.all(
        AGENTS.map(async (agent) => {
          written[agent] = [];
          await Promise.all(
            [0, 1].map(async (lane) => {
              for (let i = lane; i < PER_AGENT; i += 2) {
                const write = lane === 0 ? a : b;
                const read = lane === 0 ? b : a;
                const res = await api(write, tokens[agent]!, '/ops/remember', { text: fact(agent, i) });
                expect(res.status, JSON.stringify(res.json)).toBe(200);
                expect(res.json.result.action).toBe('created');
                written[agent]!.push(res.json.result.id);
                const seen = await api(read, tokens[agent]!, '/ops/recall', { query: `service number rack`, limit: 50 });
                expect(seen.status).toBe(200);
                for (const hit of seen.json.result.results as Array<{ record: { scope: string; text: string } }>)
                  if (hit.record.scope !== 'global' && hit.record.scope !== `agent:${agent}`)
                    leaks.push(`${agent} saw ${hit.record.scope}`);
              }
            }),
          );
        }),
      );
      expect(leaks).toEqual([]);

      // The same statement sent through both servers at once is stored once.
      const same = 'alice keeps the shared runbook in the orange binder on shelf nine';
      const raced = await Promise.all([a, b, a, b].map((url) => api(url, tokens.alice!, '/ops/remember', { text: same })));
      expect(raced.filter((r) => r.json.result.action === 'created')).toHaveLength(1);

      // Nothing lost, nothing duplicated: each agent lists exactly its writes, on both servers.
      for (const agent of AGENTS) {
        for (const url of [a, b]) {
          const listed = await api(url, tokens[agent]!, '/ops/list', { limit: 200 });
          const ids = (listed.json.result.memories as Array<{ id: string; scope: string; text: string }>)
            .filter((m) => m.text !== same)
            .map((m) => m.id);
          expect(ids.sort()).toEqual([...written[agent]!].sort());
          expect((listed.json.result.memories as Array<{ scope: string }>).every((m) => m.scope === `agent:${agent}`)).toBe(true);
        }
        // Asking for another agent's scope is refused, never answered.
        const other = AGENTS.find((x) => x !== agent)!;
        const denied = await api(b, tokens[agent]!, '/ops/list', { scope: [`agent:${other}`] });
        expect(denied.status).toBe(403);
      }
      const rows = await pg!.query<{ n: number; distinct_text: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT text)::int AS distinct_text FROM "${schema}".memories`,
      );
      expect(rows.rows[0]).toEqual({ n: AGENTS.length * PER_AGENT + 1, distinct_text: AGENTS.length * PER_AGENT + 1 });

      // A token made on machine B while both run works on A; revoked on A, it fails on both.
      const dave = await token(homes[1]!, 'dave');
      expect((await api(a, dave.token, '/whoami')).json.agent).toBe('dave');
      expect((await api(b, dave.token, '/whoami')).json.agent).toBe('dave');
      const revoke = await runCli(['--home', homes[0]!, 'tokens', 'revoke', dave.id], { env });
      expect(revoke.code, revoke.stderr).toBe(0);
      for (const url of [a, b]) {
        const after = await api(url, dave.token, '/whoami');
        expect(after.status).toBe(401);
        expect(after.json.error.reason).toBe('TOKEN_REVOKED');
      }
      // No token at all: refused (tokens exist, so anonymous access is off).
      expect((await fetch(`${a}/api/v1/whoami`)).status).toBe(401);
    } catch (error) {
      for (const s of servers) process.stderr.write(`--- strata serve ${s.url} log ---\n${s.log()}\n`);
      throw error;
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }, 240_000);
});
