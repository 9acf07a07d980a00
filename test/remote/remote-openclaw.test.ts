/**
 * The OpenClaw plugin in remote mode against a real `strata serve` on loopback: with `remote`
 * {url, tokenEnv} in the plugin config (or STRATA_URL in the gateway's environment) automatic
 * recall, the tools and the memory runtime run the service's operations as the token's agent, live
 * capture ships the turn's cleaned messages through `capture`, and the gateway's Strata home holds
 * no store, log or index and runs no worker. (The real OpenClaw runs this in test/e2e/openclaw/remote.e2e.ts.)
 */
import { readdir, rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { runCli, tempHome } from '../support/run-cli.js';
import { remoteService, type RemoteService } from './serve-process.js';

let service: RemoteService;
let clientHome: string;
const hosts: OpenClawHarness[] = [];
const homes: string[] = [];
const ENV_KEYS = ['OC_REMOTE_TOKEN', 'STRATA_URL', 'STRATA_TOKEN'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  service = await remoteService(['main', 'other']);
  clientHome = await tempHome();
  const add = await runCli(['--home', clientHome, 'add', 'The team ships the billing service with canary releases named after owls'], {
    env: { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.main! },
  });
  expect(add.code, add.stderr).toBe(0);
}, 60_000);

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.stopServices();
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

afterAll(async () => {
  await service?.close();
  if (clientHome) await rm(clientHome, { recursive: true, force: true });
});

async function gateway(pluginConfig: (home: string) => Record<string, unknown>): Promise<{ host: OpenClawHarness; home: string }> {
  const home = await tempHome();
  homes.push(home);
  // A recall budget for a loaded 2-core machine: the suite checks behaviour, not latency.
  const host = new OpenClawHarness({ pluginConfig: { home, recallTimeoutMs: 15_000, ...pluginConfig(home) } }).load(createOpenClawPlugin());
  hosts.push(host);
  await host.startServices();
  return { host, home };
}

async function serviceConversations(marker: string): Promise<string[]> {
  const out = await runCli(['--home', clientHome, '--json', 'conversations', 'search', marker, '--limit', '20'], {
    env: { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.main! },
  });
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { results: Array<{ record: { role: string; content: string } }> }).results
    .map((h) => `${h.record.role}: ${h.record.content}`)
    .filter((c) => c.includes(marker));
}

describe('OpenClaw plugin against a remote strata serve', () => {
  it('plugin config remote {url, tokenEnv}: recall, capture, tools and the memory runtime use the service; nothing local', async () => {
    process.env.OC_REMOTE_TOKEN = service.tokens.main!;
    const { host, home } = await gateway(() => ({ remote: { url: service.server.url, tokenEnv: 'OC_REMOTE_TOKEN' } }));
    const session = host.session({ agentId: 'main', sessionKey: 'agent:main:remote-1' });
    const turn = await session.turn('How do we release the billing service? marker-owl-7781', { reply: 'With owl-named canaries.' });
    expect(turn.prependContext, JSON.stringify(host.logs)).toContain('canary releases named after owls');
    const again = await session.turn('And who picks the owl names? marker-owl-7782', { reply: 'The release captain.' });
    expect(again.effectivePrompt).toContain('marker-owl-7782');

    // Each message once on the service, the injected block left out of what was captured.
    const captured = await serviceConversations('marker-owl-7781');
    expect(captured.filter((c) => c.startsWith('user:'))).toHaveLength(1);
    expect(captured.join('\n')).not.toContain('<relevant-memories>');
    expect((await serviceConversations('marker-owl-7782')).filter((c) => c.startsWith('user:'))).toHaveLength(1);

    const stored = await host.callTool('memory_store', { text: 'The staging cluster is called wren-granite-3' }, { agentId: 'main' });
    expect(JSON.stringify(stored.details)).not.toContain('"error"');
    const listed = await runCli(['--home', clientHome, '--json', 'list'], {
      env: { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.main! },
    });
    expect(listed.stdout).toContain('wren-granite-3');
    // The other agent's token never sees it.
    const other = await runCli(['--home', clientHome, '--json', 'list'], {
      env: { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.other! },
    });
    expect(other.stdout).not.toContain('wren-granite-3');

    const { manager } = (await host.memoryCapability!.runtime!.getMemorySearchManager({ agentId: 'main' })) as {
      manager: { search(q: string): Promise<Array<{ snippet: string }>> };
    };
    expect((await manager.search('staging cluster name')).map((r) => r.snippet).join('\n')).toContain('wren-granite-3');

    expect(host.logs.map((l) => l.message).join('\n')).toMatch(/memory lives on the Strata service at http:\/\/127\.0\.0\.1:\d+/);
    expect(host.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([]);
    // Only live-capture cursors stay here: no store, no conversation log or index.
    expect((await readdir(home)).sort()).toEqual(['capture', 'config.json']);
  }, 120_000);

  it('STRATA_URL and STRATA_TOKEN in the gateway environment switch the plugin to the service', async () => {
    process.env.STRATA_URL = service.server.url;
    process.env.STRATA_TOKEN = service.tokens.main!;
    const { host, home } = await gateway(() => ({}));
    const turn = await host.session({ agentId: 'main', sessionKey: 'agent:main:remote-2' }).turn('How is the billing service released?');
    expect(turn.prependContext).toContain('canary releases named after owls');
    expect(await readdir(home)).not.toContain('store');
  }, 60_000);
});
