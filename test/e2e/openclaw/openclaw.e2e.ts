/**
 * Strata inside the real OpenClaw, installed as the README tells a user (npm install -g of the
 * packed package, then `strata install openclaw --apply`), on each pinned OpenClaw release and the
 * Node it runs on, against a scripted OpenAI-compatible model server on 127.0.0.1.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode, ensurePackage } from '../support/toolchain.js';
import { installStrata } from '../support/strata-package.js';
import { contentText, startModelServer, systemText, type ChatRequest, type ModelServer } from '../support/model-server.js';
import { OPENCLAW_VERSIONS } from '../versions.js';
import { createWorld, watchDirSize, type Gateway, type World } from './world.js';
import {
  agentPolicy,
  isAgentTurn,
  isDistillation,
  isOrganiser,
  lastUserText,
  ORGANISED_SCENE,
  recalledLocalTurn,
  report,
  toolResultTexts,
} from './scenario.js';

const SEEDED = 'The user prefers the zebra-quartz colour theme in every editor.';
const STRATA_SECTION = '## Memory (Strata long-term memory)';

/** The captured messages that contain `marker`, as `strata conversations search` finds them. */
async function conversationsWith(world: World, marker: string): Promise<Array<{ role: string; content: string }>> {
  const search = await world.strata(['conversations', 'search', marker, '--agent', 'main', '--json', '--limit', '20']);
  expect(search.code, search.stderr).toBe(0);
  // Hits are the L0 records themselves (spec/conversation.ts ConversationSearchHit).
  return (JSON.parse(search.stdout) as { results: Array<{ record: { role: string; content: string } }> }).results
    .map((h) => h.record)
    .filter((r) => r.content.includes(marker));
}

async function conversationsHit(world: World, marker: string): Promise<boolean> {
  return (await conversationsWith(world, marker)).length > 0;
}

describe.each(OPENCLAW_VERSIONS)('Strata in OpenClaw $version on Node $node', ({ version, node }) => {
  let world: World;
  let model: ModelServer;
  let before: string;
  let installedConfig: string;

  beforeAll(async () => {
    const pinnedNode = await ensureNode(node);
    const [openclaw, strata] = await Promise.all([
      ensurePackage({ name: 'openclaw', version, node: pinnedNode }),
      installStrata(pinnedNode),
    ]);
    model = await startModelServer({ policy: agentPolicy });
    world = await createWorld({ openclaw, strata, model });
    before = await readFile(world.configPath, 'utf8');

    const seeded = await world.strata(['add', SEEDED, '--category', 'preference', '--agent', 'main']);
    expect(seeded.code, seeded.stderr).toBe(0);
  });

  afterAll(async () => {
    await world?.close();
    await model?.close();
  });

  it('baseline without Strata: one agent --local turn and `openclaw --help` (for the closing figures)', async () => {
    const turn = await world.openclaw(['agent', '--local', '--agent', 'main', '--message', 'Hello there, baseline turn.'], {
      measure: true,
    });
    report(version, 'agent --local turn WITHOUT Strata', turn);
    expect(turn.code, turn.stderr.slice(-3000)).toBe(0);
    const help = await world.openclaw(['--help'], { measure: true });
    report(version, 'openclaw --help WITHOUT Strata', help);
    const gateway = await world.startGateway();
    try {
      for (const n of [1, 2]) {
        const out = await world.openclaw(['agent', '--agent', 'main', '--message', `Baseline gateway turn ${n}.`]);
        report(version, `gateway agent turn ${n} WITHOUT Strata`, out);
        expect(out.code, out.stderr.slice(-2000)).toBe(0);
      }
      const rss = await gateway.peakRssKb();
      process.stdout.write(`[openclaw ${version}] gateway process WITHOUT Strata: ${rss ? Math.round(rss / 1024) : '?'} MiB peak RSS\n`);
    } finally {
      await gateway.stop();
    }
  });

  it('installs as the README says: npm install -g strata-memory, then strata install openclaw --apply', async () => {
    const installed = await world.strata(['install', 'openclaw', '--apply']);
    expect(installed.code, installed.stderr).toBe(0);
    installedConfig = await readFile(world.configPath, 'utf8');
    // Test knobs: distil after every captured message so the gateway's distiller runs within the test,
    // and a recall budget for a loaded 2-core CI machine (the suite checks behaviour; latency is reported).
    const config = await world.readConfig();
    const entry = (config.plugins as Record<string, Record<string, Record<string, unknown>>>).entries!.strata!;
    // The organiser runs after every distillation that stores a memory.
    entry.config = {
      ...(entry.config as object),
      recallTimeoutMs: 15_000,
      distill: { everyMessages: 1, idleMs: 1000 },
      strata: { layers: { organizer: { everyMemories: 1, minIntervalMs: 0 } } },
    };
    await writeFile(world.configPath, JSON.stringify(config, null, 2));
  });

  it("`openclaw strata --help` loads only the small plugin folder (no copy of Strata's dependencies)", async () => {
    const watch = watchDirSize(join(world.home, '.openclaw', 'tmp', 'plugin-captures'));
    const help = await world.openclaw(['strata', '--help'], { measure: true });
    const copiedMb = await watch.stop();
    report(version, `openclaw strata --help (plugin copies peaked at ${copiedMb.toFixed(1)} MB)`, help);
    expect(help.code, help.stderr.slice(-2000)).toBe(0);
    expect(help.stdout).toMatch(/Usage: openclaw strata/);
    expect(copiedMb).toBeLessThan(20); // the whole dependency tree is ~330 MB
  });

  it("loads through OpenClaw's own loader with no error", async () => {
    const out = await world.openclaw(['plugins', 'inspect', 'strata', '--runtime', '--json'], { measure: true });
    report(version, 'plugins inspect --runtime', out);
    expect(out.code, out.stderr).toBe(0);
    const start = out.stdout.indexOf('{');
    expect(start, `no JSON on stdout:\n${out.stdout.slice(0, 2000)}\n--- stderr:\n${out.stderr.slice(-2000)}`).toBeGreaterThanOrEqual(0);
    const inspected = JSON.parse(out.stdout.slice(start)) as {
      plugin: { status: string; toolNames: string[]; memorySlotSelected?: boolean };
      diagnostics: Array<{ level: string; message: string }>;
    };
    expect(inspected.plugin.status).toBe('loaded');
    expect(inspected.plugin.toolNames).toContain('memory_recall');
    expect(inspected.diagnostics.filter((d) => d.level === 'error')).toEqual([]);
    const text = JSON.stringify(inspected);
    expect(text).not.toMatch(/ERR_REQUIRE_ASYNC_MODULE|failed during load|await is only valid/);
  });

  it("agent --local: the seeded memory reaches the model on the first turn, the memory section is Strata's, and the turn is captured", async () => {
    const turn = await recalledLocalTurn({
      world,
      model,
      version,
      label: 'agent --local turn',
      message: 'Which colour theme should my editor use? ticket-lynx-4471',
    });
    expect(lastUserText(turn)).toContain('zebra-quartz');
    const system = systemText(turn);
    expect(system).toContain(STRATA_SECTION);
    expect(system).not.toMatch(/run memory_search|## Memory Recall/);

    // Captured before the process exits on both versions (2026.9.2 exits without waiting for agent_end).
    expect(await conversationsHit(world, 'ticket-lynx-4471')).toBe(true);
  });

  describe('through the gateway', () => {
    let gateway: Gateway;
    beforeAll(async () => {
      gateway = await world.startGateway();
    });

    it("recalls on the first turn after start, round-trips a memory tool call and distils through OpenClaw's model", async () => {
      const from = model.requests.length;
      const first = await world.openclaw(['agent', '--agent', 'main', '--message', 'Remind me of my editor theme. gateway-osprey-19'], {
        measure: true,
      });
      report(version, 'gateway agent turn (first after start)', first);
      expect(first.code, first.stderr.slice(-3000)).toBe(0);
      const turn = model.requests.slice(from).find(isAgentTurn);
      expect(turn && lastUserText(turn)).toContain('zebra-quartz');
      // One recall per turn: the registrations OpenClaw makes per process do not each run the hook.
      expect(gateway.output().match(/strata: automatic recall for main: \w+/g), gateway.output().slice(-3000)).toEqual([
        'strata: automatic recall for main: injected',
      ]);
      expect(gateway.output()).not.toMatch(/automatic recall took over|still loading/);

      const second = await world.openclaw(['agent', '--agent', 'main', '--message', 'And which theme was that again?']);
      report(version, 'gateway agent turn 2 (warm)', second);
      expect(second.code, second.stderr.slice(-3000)).toBe(0);

      const store = await world.openclaw(
        ['agent', '--agent', 'main', '--message', 'Please remember: my build server is called heron-basalt-7.'],
        { measure: true },
      );
      report(version, 'gateway agent turn with memory_store', store);
      expect(store.code, store.stderr.slice(-3000)).toBe(0);
      const results = model.requests.slice(from).flatMap(toolResultTexts);
      expect(
        results.some((t) => /Stored memory|Already stored/.test(t)),
        JSON.stringify(results).slice(0, 2000),
      ).toBe(true);
      const listed = await world.strata(['list', '--agent', 'main', '--json']);
      expect(listed.stdout).toContain('heron-basalt-7');
      expect(await conversationsHit(world, 'gateway-osprey-19')).toBe(true);
      // Captured once: before_agent_finalize and agent_end, and every later snapshot of the session, repeat it.
      expect((await conversationsWith(world, 'ticket-lynx-4471')).filter((r) => r.role === 'user')).toHaveLength(1);

      // Captures feed the running distiller, which calls the model OpenClaw is configured with.
      const distilledThisTurn = (r: ChatRequest) => isDistillation(r) && contentText(r.messages.at(-1)?.content).includes('heron-basalt-7');
      const deadline = Date.now() + 120_000;
      while (!model.requests.some(distilledThisTurn) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
      expect(model.requests.some(isDistillation), 'a distillation request reached the scripted server').toBe(true);
      expect(model.requests.some(distilledThisTurn), 'the gateway turn was distilled').toBe(true);

      // The distilled memory makes the organiser due; with no llm of Strata's own it runs as a helper
      // session on OpenClaw's embedded agent runner, whose call of Strata's scene tool writes the scene
      // through the organiser's sandbox.
      const scene = join(world.home, '.strata', 'scenes', 'main', ORGANISED_SCENE);
      const sceneDeadline = Date.now() + 120_000;
      while (!(await readFile(scene, 'utf8').catch(() => '')) && Date.now() < sceneDeadline) await new Promise((r) => setTimeout(r, 500));
      const organiserLog = () =>
        gateway
          .output()
          .split('\n')
          .filter((l) => /strata-organiser|strata:|lane|embedded run/.test(l))
          .join('\n')
          .slice(-6000);
      expect(model.requests.some(isOrganiser), `an organiser request reached the scripted server\n${organiserLog()}`).toBe(true);
      expect(await readFile(scene, 'utf8').catch(() => ''), gateway.output().slice(-3000)).toContain('heron-basalt-7');
      // The scene is written inside the run; Strata logs its summary once the runner returns.
      const logDeadline = Date.now() + 30_000;
      while (!/strata: organised \d+ memor/.test(gateway.output()) && Date.now() < logDeadline)
        await new Promise((r) => setTimeout(r, 250));
      expect(gateway.output()).toMatch(/strata: organised \d+ memor/);
      const organiser = model.requests.filter(isOrganiser);
      expect(
        organiser.some((r) => (r.tools ?? []).length > 0),
        'the organiser ran on the embedded runner, with tools',
      ).toBe(true);
      // Strata's hooks leave the organiser's session alone: no recall block, and its talk is not captured.
      expect(organiser.map(lastUserText).join('\n')).not.toContain('<relevant-memories>');
      expect(await conversationsHit(world, 'Filed the build server facts')).toBe(false);
      const rss = await gateway.peakRssKb();
      process.stdout.write(
        `[openclaw ${version}] gateway process with Strata loaded: ${rss ? Math.round(rss / 1024) : '?'} MiB peak RSS\n`,
      );
    });
  });

  it('uninstall restores the config as it was', async () => {
    await writeFile(world.configPath, installedConfig); // without the test knob
    const out = await world.strata(['uninstall', 'openclaw']);
    expect(out.code, out.stderr).toBe(0);
    const after = JSON.parse(await readFile(world.configPath, 'utf8')) as unknown;
    const expected = JSON.parse(before) as { gateway: { port: number } };
    // The test world moves the gateway's port if another process took it; that is not uninstall's doing.
    expected.gateway.port = (JSON.parse(installedConfig) as { gateway: { port: number } }).gateway.port;
    expect(after).toEqual(expected);
  });
});
