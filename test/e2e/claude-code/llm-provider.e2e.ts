/**
 * The claude-code LLM provider against the real Claude Code CLI (each pinned version): Strata,
 * configured with `llm.provider: 'claude-code'`, captures a real Claude Code transcript and
 * distills it through `claude -p`, which talks to the scripted Anthropic API on loopback. The
 * scripted model answers the extraction prompt it receives, citing the message that states the
 * rule, so the memory lands only if the transcript reached the model through the CLI and the
 * CLI's JSON result came back intact. The child must not feed Strata: a hook the user installed
 * never fires, and no session file is written.
 */
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_TRANSCRIPTS, transcriptPath } from '../../../bench/lib/real-transcripts.js';
import { captureTranscript } from '../../../src/hosts/claude-code/capture-ops.js';
import { Strata } from '../../../src/strata.js';
import { ensureNode, ensurePackage, pathWith } from '../support/toolchain.js';
import { CLAUDE_CODE_VERSIONS } from '../versions.js';
import { startAnthropicServer, type AnthropicServer, type MessagesRequest, type Turn } from './support/anthropic-server.js';

const NAVUSER = REAL_TRANSCRIPTS.find((t) => t.id === 'cc-navuser')!;
/** What the user says at L46 of the transcript, and the memory a good extractor makes of it. */
const STATED = /use the initials from the username if name isn't present/i;
const MEMORY =
  'The nav menu must show initials from the username when the user has no display name, never "Guest User" for a logged-in user.';

/** The scripted model: for Strata's extraction prompt, one memory citing the message that states the rule. */
function extractor(request: MessagesRequest): Turn {
  if (!/You distill a conversation/.test(request.system)) return { kind: 'text', text: 'OK' };
  const text = request.userTexts.join('\n');
  const blocks = [...text.matchAll(/^\[(\d+) user \d\d:\d\d\]\n([\s\S]*?)(?=^\[\d+ \w+ \d\d:\d\d\]$|(?![\s\S]))/gm)];
  const cited = blocks.find((b) => STATED.test(b[2]!))?.[1];
  const memories = cited
    ? [
        {
          text: MEMORY,
          category: 'rule',
          importance: 0.8,
          confidence: 0.9,
          scope: 'agent',
          temporal: 'static',
          validFrom: null,
          sourceMessageIds: [cited],
          keywords: ['nav menu', 'initials', 'username', 'Guest User'],
        },
      ]
    : [];
  return { kind: 'text', text: JSON.stringify({ memories }) };
}

describe.each(CLAUDE_CODE_VERSIONS)('claude-code LLM provider on Claude Code $version', ({ version, node: nodeVersion }) => {
  let root: string;
  let server: AnthropicServer;
  let claudeBin: string;
  let userHome: string;
  let strata: Strata;
  const saved: Record<string, string | undefined> = {};
  const setEnv = (vars: Record<string, string>) => {
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  };

  beforeAll(async () => {
    const node = await ensureNode(nodeVersion);
    const pkg = await ensurePackage({ name: '@anthropic-ai/claude-code', version, node });
    claudeBin = join(pkg.binDir, 'claude');
    root = await mkdtemp(join(tmpdir(), `strata-e2e-cc-llm-${version}-`));
    userHome = join(root, 'home');
    server = await startAnthropicServer({ script: extractor });
    // The user's own Claude Code, as the provider finds it: logged in (an API key here), pointed at
    // its endpoint, and with a hook of its own that must not fire for Strata's calls.
    await mkdir(join(userHome, '.claude'), { recursive: true });
    const marker = join(root, 'hook-fired');
    const hook = [{ hooks: [{ type: 'command', command: `echo fired >> ${marker}` }] }];
    await writeFile(
      join(userHome, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { SessionStart: hook, UserPromptSubmit: hook, Stop: hook } }),
    );
    // The provider's child inherits the process environment (as it does in the hooks' resident).
    setEnv({
      HOME: userHome,
      PATH: pathWith(node, process.env),
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    strata = await Strata.open({
      home: join(root, 'strata'),
      overrides: { llm: { provider: 'claude-code', command: claudeBin }, embedder: { provider: 'none' } },
    });
  });

  afterAll(async () => {
    await strata?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('distills a real Claude Code transcript through claude -p and the memory lands', async () => {
    // The transcript in Claude Code's own layout, captured the way the hooks capture it.
    const project = join(root, 'claude', 'projects', basename(dirname(NAVUSER.path)));
    await mkdir(project, { recursive: true });
    const transcript = join(project, basename(NAVUSER.path));
    await copyFile(transcriptPath(NAVUSER), transcript);
    const captured = await captureTranscript({ strata, agentId: 'claude-code', transcriptPath: transcript });
    expect(captured.newMessages).toBeGreaterThan(10);

    const report = await strata.distill({ agentId: 'claude-code' });
    expect(report).toMatchObject({ mode: 'llm' });
    const memories = await strata.list({ scopes: ['global', 'agent:claude-code'] });
    expect(memories.map((m) => m.text)).toContain(MEMORY);
    const memory = memories.find((m) => m.text === MEMORY)!;
    expect(memory.category).toBe('rule');
    expect(JSON.stringify(memory)).toContain(NAVUSER.sessionId);

    // Every extraction call went through the CLI: Strata's prompt as the system prompt, the cheap
    // default model, no tools offered, and the transcript text in the user turn.
    const calls = server.requests.filter((r) => /You distill a conversation/.test(r.system));
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.tools).toEqual([]);
      expect(String(call.body.model)).toMatch(/haiku/);
      expect(call.headers['user-agent'] ?? '').toMatch(/claude-cli|claude-code/i);
    }
    expect(calls.some((c) => STATED.test(c.userTexts.join('\n')))).toBe(true);
  });

  it('logs the usage and the cost the CLI reported', async () => {
    const usageDir = join(root, 'strata', 'usage');
    const lines = (await Promise.all((await readdir(usageDir)).map((f) => readFile(join(usageDir, f), 'utf8'))))
      .join('')
      .trim()
      .split('\n');
    const entries = lines.map(
      (l) => JSON.parse(l) as { provider: string; ok: boolean; inputTokens: number; outputTokens: number; costUsd: number | null },
    );
    const ours = entries.filter((e) => e.provider === 'claude-code' && e.ok);
    expect(ours.length).toBeGreaterThan(0);
    for (const e of ours) {
      expect(e.inputTokens).toBeGreaterThan(0);
      expect(e.outputTokens).toBeGreaterThan(0);
      expect(e.costUsd).toBeGreaterThan(0);
    }
  });

  it('the CLI child never feeds Strata or anything else: no user hook fired, no session file written', async () => {
    await expect(readFile(join(root, 'hook-fired'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const sessions = await readdir(join(userHome, '.claude', 'projects'), { recursive: true }).catch(() => [] as string[]);
    expect(sessions.filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });
});
