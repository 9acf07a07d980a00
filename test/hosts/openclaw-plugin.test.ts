import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenClawPlugin } from '../../src/hosts/openclaw/index.js';
import { Strata } from '../../src/strata.js';
import { OpenClawHarness } from '../support/openclaw-harness.js';
import { tempHome } from '../support/run-cli.js';

interface L0Row {
  role: string;
  content: string;
  agentId: string;
  sessionKey: string;
}

async function l0Rows(home: string): Promise<L0Row[]> {
  const dir = join(home, 'conversations');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl')).sort();
  const rows: L0Row[] = [];
  for (const f of files) {
    for (const line of (await readFile(join(dir, f), 'utf8')).split('\n')) if (line.trim()) rows.push(JSON.parse(line) as L0Row);
  }
  return rows;
}

async function seed(home: string, items: Array<{ text: string; scope: string }>): Promise<void> {
  const strata = await Strata.open({ home });
  try {
    for (const item of items) await strata.remember({ ...item, category: 'preference' });
  } finally {
    await strata.close();
  }
}

const ENVELOPE = [
  'Conversation info (untrusted metadata):',
  '```json',
  '{ "message_id": "1492504432485601383", "channel": "discord-lobby" }',
  '```',
  '',
  'Sender (untrusted metadata):',
  '```json',
  '{ "name": "Bosn Ma" }',
  '```',
  '',
].join('\n');

describe('OpenClaw plugin in a host harness', () => {
  let home: string;
  let host: OpenClawHarness;

  beforeEach(async () => {
    home = await tempHome();
    host = new OpenClawHarness({ pluginConfig: { home, distill: { enabled: false } } });
    host.load(createOpenClawPlugin());
  });

  afterEach(async () => {
    await host.stopServices();
    await rm(home, { recursive: true, force: true });
  });

  it('registers the documented hooks, tools and CLI', () => {
    expect(host.hookNames()).toEqual([
      'agent_end',
      'before_agent_finalize',
      'before_compaction',
      'before_prompt_build',
      'before_reset',
      'session_end',
      'session_start',
    ]);
    // The scene tools are registered too, but offered only inside an organiser run (openclaw-organiser-runner.test.ts).
    expect(host.toolNames()).toEqual([
      'memory_forget',
      'memory_list',
      'memory_recall',
      'memory_stats',
      'memory_store',
      'memory_update',
      'strata_edit_scene',
      'strata_list_scenes',
      'strata_read_scene',
      'strata_write_scene',
    ]);
    expect(host.offeredTools({ agentId: 'main', sessionKey: 'agent:main:main' }).map((t) => t.name)).toEqual(
      expect.not.arrayContaining(['strata_write_scene']),
    );
    expect(host.cliCommands()).toEqual(['strata']);
  });

  it('injects recall, captures each message once, and never captures its own block back', async () => {
    await seed(home, [
      { text: 'I prefer Helix for editing code.', scope: 'agent:main' },
      { text: 'The discord-lobby message_id belongs to Bosn Ma.', scope: 'agent:main' },
      { text: 'Secret of another agent: prefers Emacs for code.', scope: 'agent:other' },
    ]);
    const session = host.session({ agentId: 'main', sessionKey: 'agent:main:discord:1' });

    // The envelope is stripped from the query: the decoy about its metadata is not recalled.
    const t1 = await session.turn(`${ENVELOPE}Which editor do I prefer for code?`, { reply: 'You prefer Helix.' });
    expect(t1.prependContext).toMatch(/^<relevant-memories>\n/);
    expect(t1.prependContext).toContain('I prefer Helix for editing code.');
    expect(t1.prependContext).not.toContain('Bosn Ma');
    expect(t1.prependContext).not.toContain('Emacs'); // other agent's scope
    expect(t1.effectivePrompt.startsWith(t1.prependContext!)).toBe(true);

    // The adaptive gate skips acknowledgements.
    const t2 = await session.turn('ok thanks', { reply: 'Any time.' });
    expect(t2.prependContext).toBeUndefined();

    await session.turn('Remember that our staging database is Postgres 16 on port 5433.', { reply: 'Got it.' });

    const rows = await l0Rows(home);
    // Three turns, cumulative snapshots: six messages, each exactly once.
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(new Set(rows.map((r) => r.content)).size).toBe(6);
    expect(rows.every((r) => r.agentId === 'main' && r.sessionKey === 'agent:main:discord:1')).toBe(true);
    // No feedback loop: the injected block (and the memory it carried) never lands in the log.
    const all = rows.map((r) => r.content).join('\n');
    expect(all).not.toMatch(/relevant-memories|untrusted historical data/);
    expect(all).not.toContain('Helix for editing code');
    expect(rows[0]!.content).toContain('Which editor do I prefer for code?');

    // A resent snapshot (OpenClaw re-fires agent_end with the same session) adds nothing.
    await host.emit(
      'agent_end',
      { messages: [...session.messages], success: true },
      { agentId: 'main', sessionKey: 'agent:main:discord:1' },
    );
    expect(await l0Rows(home)).toHaveLength(6);
  });

  it('captures the last reply before OpenClaw delivers it, when agent_end never finishes (2026.9.2 agent --local exits), and once', async () => {
    const session = host.session({ agentId: 'main', sessionKey: 'agent:main:local' });
    await session.turn('My release train leaves on Thursdays. ticket-lynx-4471', { reply: 'Thursdays it is.', agentEnd: 'lost' });
    await host.stopServices();
    const afterExit = await l0Rows(home);
    expect(afterExit.map((r) => r.content)).toEqual(['My release train leaves on Thursdays. ticket-lynx-4471', 'Thursdays it is.']);
    const strata = await Strata.open({ home });
    try {
      const hits = await strata.searchConversations({ query: 'ticket-lynx-4471', agentIds: ['main'], limit: 5 });
      expect(hits.some((h) => h.record.content.includes('ticket-lynx-4471'))).toBe(true);
    } finally {
      await strata.close();
    }

    // The next process (a new plugin instance) sees the whole session again: nothing is written twice.
    const next = new OpenClawHarness({ pluginConfig: { home, distill: { enabled: false } } });
    next.load(createOpenClawPlugin());
    const resumed = next.session({ agentId: 'main', sessionKey: 'agent:main:local' });
    resumed.messages.push(...session.messages);
    await resumed.turn('And the hotfix window?', { reply: 'Fridays.' });
    await next.stopServices();
    expect((await l0Rows(home)).map((r) => r.content)).toEqual([
      'My release train leaves on Thursdays. ticket-lynx-4471',
      'Thursdays it is.',
      'And the hotfix window?',
      'Fridays.',
    ]);
  });

  it('skips failed runs and records their messages with the next successful snapshot', async () => {
    const session = host.session({ agentId: 'main', sessionKey: 's-fail' });
    await session.turn('My deploy target is the Frankfurt region, please note.', { success: false });
    expect(await l0Rows(home)).toHaveLength(0);
    await session.turn('Also the backup bucket is called nightly-snapshots.', { reply: 'Noted both.' });
    const rows = await l0Rows(home);
    expect(rows.map((r) => r.content)).toEqual([
      'My deploy target is the Frankfurt region, please note.',
      'Also the backup bucket is called nightly-snapshots.',
      'Noted both.',
    ]);
  });

  it('flushes on reset and distils at session end into the agent scope', async () => {
    const session = host.session({ agentId: 'main', sessionKey: 's-distill' });
    await session.turn('Remember that I always deploy on Tuesdays.', { reply: 'Okay.' });
    await session.end('idle');
    await host.stopServices(); // waits for the background distillation started by session_end

    const strata = await Strata.open({ home });
    try {
      const memories = await strata.list({ scopes: ['global', 'agent:main'] });
      expect(memories.some((m) => /deploys? on Tuesdays/.test(m.text))).toBe(true);
    } finally {
      await strata.close();
    }

    // before_reset carries messages the plugin has not seen yet (e.g. agent_end was dropped).
    const other = host.session({ agentId: 'main', sessionKey: 's-reset' });
    other.messages.push({
      role: 'user',
      content: 'The office wifi password rotates monthly.',
      timestamp: Date.parse('2026-11-02T08:00:00Z'),
    });
    await other.reset();
    expect((await l0Rows(home)).some((r) => r.sessionKey === 's-reset' && r.content.includes('wifi password rotates'))).toBe(true);
    await host.stopServices();
  });

  it('rejects an invalid plugin config with the field named', () => {
    const bad = new OpenClawHarness({ pluginConfig: { home, recallLimit: 0 } });
    expect(() => bad.load(createOpenClawPlugin())).toThrow(/recallLimit/);
    const unknown = new OpenClawHarness({ pluginConfig: { home, autoRecal: true } });
    expect(() => unknown.load(createOpenClawPlugin())).toThrow(/plugins\.entries\.strata\.config/);
  });
});

describe('OpenClaw plugin background service', () => {
  it('runs the distill scheduler after N captured messages and shuts down cleanly', async () => {
    const home = await tempHome();
    try {
      const host = new OpenClawHarness({
        pluginConfig: { home, autoRecall: false, distill: { enabled: true, onSessionEnd: false, everyMessages: 2 } },
      });
      host.load(createOpenClawPlugin());
      expect(host.hookNames()).not.toContain('before_prompt_build');
      await host.startServices();
      const session = host.session({ agentId: 'ops', sessionKey: 's-service' });
      await session.turn('Remember that I never deploy on Fridays.', { reply: 'Understood.' });
      await host.stopServices(); // waits for the scheduler's run in progress, then closes the store
      expect(host.logs.some((l) => /distilled 2 messages/.test(l.message))).toBe(true);

      const strata = await Strata.open({ home });
      try {
        const memories = await strata.list({ scopes: ['agent:ops', 'global'] });
        expect(memories.map((m) => m.text).join('\n')).toMatch(/never deploys? on Fridays/);
      } finally {
        await strata.close();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
