/**
 * The real CLI against a real `strata serve` on loopback: per-agent tokens made with
 * `strata tokens create`, and `STRATA_URL` + `STRATA_TOKEN` turning every memory command into a
 * client of the service (the client's home holds nothing).
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';
import { spawnServer, type SpawnedServer } from '../hosts/spawn-server.js';

let serverHome: string;
let clientHome: string;
let server: SpawnedServer;
const tokens: Record<string, string> = {};

async function createToken(args: string[]): Promise<{ token: string; id: string }> {
  const out = await runCli(['--home', serverHome, '--json', 'tokens', 'create', ...args]);
  expect(out.code, out.stderr).toBe(0);
  const parsed = JSON.parse(out.stdout) as { token: string; id: string };
  return parsed;
}

beforeAll(async () => {
  serverHome = await tempHome();
  clientHome = await tempHome();
  tokens.alice = (await createToken(['--agent', 'alice', '--label', 'laptop'])).token;
  tokens.bob = (await createToken(['--agent', 'bob', '--grants', 'project:shared'])).token;
  server = await spawnServer(['--home', serverHome, 'serve', '--port', '0']);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await rm(serverHome, { recursive: true, force: true });
  await rm(clientHome, { recursive: true, force: true });
});

const as = (agent: string, args: string[], extra: Record<string, string> = {}) =>
  runCli(['--home', clientHome, ...args], { env: { STRATA_URL: server.url, STRATA_TOKEN: tokens[agent] ?? '', ...extra } });

describe('strata CLI with STRATA_URL against strata serve', () => {
  it('stores tokens hashed, never the secret', async () => {
    const list = await runCli(['--home', serverHome, '--json', 'tokens', 'list']);
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as Array<{ agentId: string; label: string | null; hash?: string }>;
    expect(rows.map((r) => r.agentId).sort()).toEqual(['alice', 'bob']);
    expect(list.stdout).not.toContain(tokens.alice);
    const { readFile } = await import('node:fs/promises');
    const file = await readFile(`${serverHome}/tokens.json`, 'utf8');
    expect(file).not.toContain(tokens.alice);
    expect(file).not.toContain(tokens.bob);
  });

  it('writes and reads as the token’s agent; the other agent never sees it', async () => {
    const add = await as('alice', ['--json', 'add', 'Alice deploys with blue-green releases on Fridays']);
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout) as { record?: { scope: string }; scope?: string };
    expect(JSON.stringify(added)).toContain('agent:alice');

    const found = await as('alice', ['--json', 'recall', 'blue-green releases']);
    expect(found.code, found.stderr).toBe(0);
    const texts = (out: string) => (JSON.parse(out) as { results: Array<{ record: { text: string } }> }).results.map((r) => r.record.text);
    expect(texts(found.stdout).join('\n')).toContain('blue-green');

    const leaked = await as('bob', ['--json', 'recall', 'blue-green releases']);
    expect(leaked.code, leaked.stderr).toBe(0);
    expect(texts(leaked.stdout).join('\n')).not.toContain('blue-green');
    const listed = await as('bob', ['--json', 'list']);
    expect(listed.stdout).not.toContain('blue-green');

    // Nothing was written to the client's home: the service holds the memory.
    expect((await readdir(clientHome)).sort()).toEqual(['config.json']);
  });

  it('refuses to widen: --all-scopes and another --agent are errors, a foreign scope is 403', async () => {
    const all = await as('bob', ['list', '--all-scopes']);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/token decides the scopes/);
    const other = await as('bob', ['--agent', 'alice', 'list']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/acts as bob/);
    const res = await fetch(`${server.url}/api/v1/ops/recall`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.bob}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'blue-green', scope: ['agent:alice'] }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN_SCOPE');
  });

  it('answers 401 with a reason for a missing, unknown and revoked token; revoke applies to the running server', async () => {
    const missing = await fetch(`${server.url}/api/v1/whoami`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { reason: string } }).error.reason).toBe('MISSING_TOKEN');
    const bad = await as('nobody', ['list'], { STRATA_TOKEN: 'strata_000000000000_' + 'x'.repeat(43) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/UNAUTHORIZED/);

    const carol = await createToken(['--agent', 'carol']);
    tokens.carol = carol.token;
    expect((await as('carol', ['--json', 'stats'])).code).toBe(0);
    const revoked = await runCli(['--home', serverHome, 'tokens', 'revoke', carol.id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${carol.token}` } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { reason: string } }).error.reason).toBe('TOKEN_REVOKED');
  });

  it('the grants of a token are read; another agent’s scope cannot be granted', async () => {
    const who = await as('bob', ['--json', 'stats']);
    expect(who.code, who.stderr).toBe(0);
    expect((JSON.parse(who.stdout) as { scopes: string[] }).scopes).toEqual(
      expect.arrayContaining(['global', 'agent:bob', 'project:shared']),
    );
    const refused = await runCli(['--home', serverHome, 'tokens', 'create', '--agent', 'bob', '--grants', 'agent:alice']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/another agent's scope/);
  });

  it('reads remote.tokenEnv from the home config whether STRATA_URL, --url or the config names the service', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, remote: { tokenEnv: 'LAPTOP_STRATA_TOKEN' } });
    try {
      const env = { STRATA_TOKEN: '', LAPTOP_STRATA_TOKEN: tokens.alice! };
      const agentOf = (out: { code: number | null; stdout: string; stderr: string }) => {
        expect(out.code, out.stderr).toBe(0);
        return (JSON.parse(out.stdout) as { agent: string }).agent;
      };
      expect(agentOf(await runCli(['--home', home, '--json', 'stats'], { env: { ...env, STRATA_URL: server.url } }))).toBe('alice');
      expect(agentOf(await runCli(['--home', home, '--url', server.url, '--json', 'stats'], { env: { ...env, STRATA_URL: '' } }))).toBe(
        'alice',
      );
      await writeFile(
        join(home, 'config.json'),
        JSON.stringify({ embedder: { provider: 'none' }, remote: { url: server.url, tokenEnv: 'LAPTOP_STRATA_TOKEN' } }),
      );
      expect(agentOf(await runCli(['--home', home, '--json', 'stats'], { env: { ...env, STRATA_URL: '' } }))).toBe('alice');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('serve refuses a non-loopback bind with no token configured', async () => {
    const home = await tempHome();
    try {
      const out = await runCli(['--home', home, 'serve', '--host', '0.0.0.0', '--port', '0'], { env: { STRATA_HTTP_TOKEN: '' } });
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/Refusing to listen on 0\.0\.0\.0 without a bearer token/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
