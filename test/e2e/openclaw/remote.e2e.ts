/**
 * OpenClaw in remote mode, in the real host: a real `strata serve` (the globally installed package,
 * on the pinned Node) runs on loopback with a per-agent token, and the plugin on the OpenClaw machine
 * is configured with `remote: { url, tokenEnv }`. A turn recalls a memory stored on the service, the
 * turn's messages land in the service's conversation search, a memory tool call stores on the
 * service, and the OpenClaw machine's Strata home holds no store, log or index of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode, ensurePackage } from '../support/toolchain.js';
import { installStrata, type InstalledStrata } from '../support/strata-package.js';
import { startModelServer, type ModelServer } from '../support/model-server.js';
import { OPENCLAW_VERSIONS } from '../versions.js';
import { createWorld, runProgram, type World } from './world.js';
import { agentPolicy, isAgentTurn, lastUserText, recalledLocalTurn, report, toolResultTexts } from './scenario.js';

const ON_SERVICE = 'The user deploys the payments service with canary releases named after owls.';
const TOKEN_ENV = 'STRATA_E2E_SERVICE_TOKEN';

interface Service {
  url: string;
  home: string;
  token: string;
  log(): string;
  stop(): Promise<void>;
}

/** `strata serve` of the installed package on a fresh home with one token for agent `main`. */
async function startService(strata: InstalledStrata, env: NodeJS.ProcessEnv): Promise<Service> {
  const home = await mkdtemp(join(tmpdir(), 'strata-e2e-service-'));
  const bin = join(strata.binDir, 'strata');
  const created = await runProgram(bin, ['--home', home, '--json', 'tokens', 'create', '--agent', 'main'], { env, cwd: home });
  expect(created.code, created.stderr).toBe(0);
  const token = (JSON.parse(created.stdout) as { token: string }).token;
  const child: ChildProcess = spawn(bin, ['--home', home, 'serve', '--port', '0'], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 180_000;
  let match: RegExpExecArray | null;
  while (!(match = /strata API on (http:\/\/[^\s/]+)/.exec(output))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`strata serve did not start:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: match[1]!,
    home,
    token,
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(home, { recursive: true, force: true });
    },
  };
}

describe.each(OPENCLAW_VERSIONS)('Strata remote mode in OpenClaw $version on Node $node', ({ version, node }) => {
  let world: World;
  let model: ModelServer;
  let strata: InstalledStrata;
  let service: Service;

  /** The `strata` CLI of the OpenClaw machine, as a client of the service with the token. */
  const client = (args: string[]) =>
    runProgram(join(strata.binDir, 'strata'), args, {
      env: { ...world.env, STRATA_URL: service.url, STRATA_TOKEN: service.token },
      cwd: world.home,
      timeoutMs: 120_000,
    });

  const onService = async (marker: string): Promise<string[]> => {
    const out = await client(['conversations', 'search', marker, '--json', '--limit', '20']);
    expect(out.code, out.stderr).toBe(0);
    return (JSON.parse(out.stdout) as { results: Array<{ record: { role: string; content: string } }> }).results
      .map((h) => `${h.record.role}: ${h.record.content}`)
      .filter((c) => c.includes(marker));
  };

  beforeAll(async () => {
    const pinnedNode = await ensureNode(node);
    const [openclaw, installed] = await Promise.all([
      ensurePackage({ name: 'openclaw', version, node: pinnedNode }),
      installStrata(pinnedNode),
    ]);
    strata = installed;
    model = await startModelServer({ policy: agentPolicy });
    world = await createWorld({ openclaw, strata, model });
    service = await startService(strata, world.env);

    const seeded = await client(['add', ON_SERVICE, '--category', 'fact']);
    expect(seeded.code, seeded.stderr).toBe(0);
    const installedPlugin = await world.strata(['install', 'openclaw', '--apply']);
    expect(installedPlugin.code, installedPlugin.stderr).toBe(0);
    const config = await world.readConfig();
    const entry = (config.plugins as Record<string, Record<string, Record<string, unknown>>>).entries!.strata!;
    // The token reaches the plugin by the variable the plugin config names, never through the file.
    entry.config = { ...(entry.config as object), recallTimeoutMs: 15_000, remote: { url: service.url, tokenEnv: TOKEN_ENV } };
    await writeFile(world.configPath, JSON.stringify(config, null, 2));
    world.env[TOKEN_ENV] = service.token;
  });

  afterAll(async () => {
    await world?.close();
    await service?.stop();
    await model?.close();
  });

  it("agent --local: the service's memory reaches the model and the turn lands in the service's conversation search", async () => {
    const turn = await recalledLocalTurn({
      world,
      model,
      version,
      label: 'agent --local turn, remote mode',
      message: 'How do we release the payments service? ticket-remote-owl-5521',
    });
    expect(lastUserText(turn)).toContain('canary releases named after owls');

    // Captured before the reply (before_agent_finalize) and shipped through the service's capture operation.
    const captured = await onService('ticket-remote-owl-5521');
    expect(
      captured.filter((c) => c.startsWith('user:')),
      service.log().slice(-2000),
    ).toHaveLength(1);
  });

  it('through the gateway: recall and a memory_store tool call go to the service; no workers run on the gateway', async () => {
    const gateway = await world.startGateway();
    try {
      const from = model.requests.length;
      const recall = await world.openclaw(
        ['agent', '--agent', 'main', '--message', 'Remind me how payments releases work. gw-remote-kestrel-8'],
        {
          measure: true,
        },
      );
      report(version, 'gateway agent turn, remote mode', recall);
      expect(recall.code, recall.stderr.slice(-3000)).toBe(0);
      const turn = model.requests.slice(from).find(isAgentTurn);
      expect(turn && lastUserText(turn)).toContain('canary releases named after owls');

      const store = await world.openclaw([
        'agent',
        '--agent',
        'main',
        '--message',
        'Please remember: the staging cluster is called wren-granite-3.',
      ]);
      expect(store.code, store.stderr.slice(-3000)).toBe(0);
      const results = model.requests.slice(from).flatMap(toolResultTexts);
      expect(
        results.some((t) => /Stored memory|Already stored/.test(t)),
        JSON.stringify(results).slice(0, 2000),
      ).toBe(true);
      const listed = await client(['list', '--json']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('wren-granite-3');
      expect(await onService('gw-remote-kestrel-8')).not.toEqual([]);
      expect(gateway.output()).toMatch(/strata: memory lives on the Strata service at http:\/\/127\.0\.0\.1:\d+/);
      expect(gateway.output()).not.toMatch(/strata: (distilled|summarised)|could not start the background worker/);
    } finally {
      await gateway.stop();
    }
  });

  it("the OpenClaw machine's Strata home holds no store, conversation log or index", async () => {
    const localHome = join(world.home, '.strata');
    const entries = await readdir(localHome).catch(() => [] as string[]);
    // Only the live-capture cursors (and locks) stay on this machine.
    expect(entries.filter((e) => !['capture', 'locks', 'logs'].includes(e))).toEqual([]);
    const tokenInFiles = await readFile(world.configPath, 'utf8');
    expect(tokenInFiles).not.toContain(service.token);
  });
});
