/**
 * One real Claude Code in a throwaway machine: a temp HOME, a project folder, the pinned Claude
 * Code and Node on PATH, Strata installed globally (strata-package.ts), and the scripted Anthropic
 * API on loopback. The model's behaviour follows markers in the prompt:
 *
 * - `[tool:<name> <json>]`: call that tool with that input, then answer with the tool's result;
 * - Strata's distillation prompt (sent by the `claude -p` child the hooks start when `claude` is on
 *   PATH and no llm is configured, see CLAUDE_ON_PATH): one memory per "remember that ..." line;
 * - anything else: answer `OK`.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNode, ensurePackage, pathWith, type InstalledNode } from '../../support/toolchain.js';
import { startAnthropicServer, type AnthropicServer, type MessagesRequest, type Turn } from './anthropic-server.js';
import type { StrataInstall } from './strata-package.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ClaudeSandbox {
  version: string;
  root: string;
  /** The temp HOME (`~`). */
  home: string;
  /** `~/.strata`, the default Strata home. */
  strataHome: string;
  project: string;
  env: NodeJS.ProcessEnv;
  server: AnthropicServer;
  node: InstalledNode;
  claudeBin: string;
  /** `claude <args>` in `cwd` (default the project), stdin closed. */
  claude(args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  /** Any command with the sandbox environment (e.g. `strata-memory …`, `npx …`). */
  run(command: string, args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<RunResult>;
  /** Stops the resident Strata process this sandbox's hooks started (if any), then removes everything. */
  close(): Promise<void>;
}

const TOOL_MARKER = /\[tool:(\S+) (\{.*?\})\]/;
/** `STRATA_E2E_CLAUDE_ON_PATH=1`: the sandbox user has `claude` on PATH (see createSandbox). */
export const CLAUDE_ON_PATH = process.env.STRATA_E2E_CLAUDE_ON_PATH === '1';
/** The system prompt of Strata's extraction call (src/core/distill). */
export const DISTILL_PROMPT = /You distill a conversation/;

/** The system prompt of Strata's reconcile call (a candidate next to similar stored memories). */
export const RECONCILE_PROMPT = /You keep an AI agent's long-term memory consistent/;
/** The system prompt of the session journal (PreCompact / SessionEnd worker pass). */
export const JOURNAL_PROMPT = /You keep a concise daily journal/;

/** Every call Strata itself makes through the user's `claude -p` (distill, reconcile, journal): not the agent's. */
export function isStrataCall(request: MessagesRequest): boolean {
  return [DISTILL_PROMPT, RECONCILE_PROMPT, JOURNAL_PROMPT].some((p) => p.test(request.system));
}

/** A careful reconciler: skips a candidate whose text is already stored, creates the rest. */
function reconciled(request: MessagesRequest): Turn {
  const json = /\{[\s\S]*\}/.exec(request.userTexts.join('\n'))?.[0] ?? '{}';
  const payload = JSON.parse(json) as {
    candidates?: Array<{ index: number; text: string; existing: Array<{ id: string; text: string }> }>;
  };
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  const decisions = (payload.candidates ?? []).map((c) => {
    const same = c.existing.find((e) => norm(e.text) === norm(c.text));
    return same
      ? { index: c.index, action: 'skip', targetId: same.id, text: null, reason: 'already stored' }
      : { index: c.index, action: 'create', targetId: null, text: null, reason: 'new information' };
  });
  return { kind: 'text', text: JSON.stringify({ decisions }) };
}

/** A journal entry for any session: one line of context, nothing else worth keeping. */
function journalEntry(): Turn {
  const entry = {
    worthKeeping: true,
    context: 'A short session in the project.',
    keyExchanges: [],
    decisions: [],
    lessons: [],
    actionItems: [],
  };
  return { kind: 'text', text: JSON.stringify(entry) };
}

/** What a good extractor makes of the user's "remember that ..." messages, citing each message. */
function distilled(request: MessagesRequest): Turn {
  const text = request.userTexts.join('\n');
  const blocks = [...text.matchAll(/^\[(\d+) user \d\d:\d\d\]\n([\s\S]*?)(?=^\[\d+ \w+ \d\d:\d\d\]$|(?![\s\S]))/gm)];
  const memories = blocks.flatMap(([, id, body]) => {
    const fact = /remember that (.+?)\.?\s*$/im.exec(body ?? '')?.[1];
    if (!fact) return [];
    const statement = fact.charAt(0).toUpperCase() + fact.slice(1) + '.';
    return [
      {
        text: statement,
        category: 'fact',
        importance: 0.8,
        confidence: 0.9,
        scope: 'agent',
        temporal: 'static',
        validFrom: null,
        sourceMessageIds: [id],
        keywords: [],
      },
    ];
  });
  return { kind: 'text', text: JSON.stringify({ memories }) };
}

/**
 * The scripted model. With a `[tool:<name> <json>]` marker it calls that tool, as a real model
 * would: MCP servers connect in the background, so it first waits for them (WaitForMcpServers,
 * 2.1.197) or loads the deferred tool's schema (ToolSearch, 2.1.331) when the tool is not offered
 * yet; it answers with the tool's result. Anything else: `OK`.
 */
export function scriptedModel(request: MessagesRequest): Turn {
  if (DISTILL_PROMPT.test(request.system)) return distilled(request);
  if (RECONCILE_PROMPT.test(request.system)) return reconciled(request);
  if (JOURNAL_PROMPT.test(request.system)) return journalEntry();
  const marker = TOOL_MARKER.exec(request.userTexts.join('\n'));
  if (!marker) return { kind: 'text', text: 'OK' };
  const [, name, json] = marker as unknown as [string, string, string];
  if (request.lastToolUses.includes(name)) return { kind: 'text', text: `Tool said: ${request.toolResults.map((r) => r.text).join('\n')}` };
  const tries = (tool: string) => request.toolUses.filter((t) => t === tool).length;
  // A deferred tool (2.1.331) becomes callable once ToolSearch has returned a reference to it.
  const tool = (request.body.tools as Array<{ name: string; defer_loading?: boolean }> | undefined)?.find((t) => t.name === name);
  if (tool && (!tool.defer_loading || tries('ToolSearch') > 0))
    return { kind: 'tool_use', name, input: JSON.parse(json) as Record<string, unknown> };
  if (request.tools.includes('WaitForMcpServers') && tries('WaitForMcpServers') < 3)
    return { kind: 'tool_use', name: 'WaitForMcpServers', input: {} };
  if (request.tools.includes('ToolSearch') && tries('ToolSearch') < 5)
    return { kind: 'tool_use', name: 'ToolSearch', input: { query: `select:${name}`, max_results: 5 } };
  return { kind: 'text', text: `Tool ${name} is not available.` };
}

function exec(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now();
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr, ms: Date.now() - started });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

export async function createSandbox(options: { version: string; nodeVersion: string; strata: StrataInstall }): Promise<ClaudeSandbox> {
  const node = await ensureNode(options.nodeVersion);
  const claudePkg = await ensurePackage({ name: '@anthropic-ai/claude-code', version: options.version, node });
  const root = await mkdtemp(join(tmpdir(), `strata-e2e-cc-${options.version}-`));
  const home = join(root, 'home');
  const project = join(home, 'work', 'quokka');
  await mkdir(project, { recursive: true });
  const server = await startAnthropicServer({ script: scriptedModel });
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    USER: 'e2e',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    // With CLAUDE_ON_PATH, `claude` is on PATH as for every user: with no llm configured the hooks
    // then distill through it (the claude-code provider). Off by default until that path passes here.
    PATH: pathWith(node, {
      PATH: [options.strata.binDir, ...(CLAUDE_ON_PATH ? [claudePkg.binDir] : []), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    }),
    // npm as the user has it: the global prefix holds Strata; the real cache keeps npx offline-fast.
    NPM_CONFIG_PREFIX: options.strata.prefix,
    npm_config_cache: join(homedir(), '.npm'),
    npm_config_update_notifier: 'false',
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const claudeBin = join(claudePkg.binDir, 'claude');
  const sandbox: ClaudeSandbox = {
    version: options.version,
    root,
    home,
    strataHome: join(home, '.strata'),
    project,
    env,
    server,
    node,
    claudeBin,
    claude: (args, o = {}) => exec(claudeBin, args, { cwd: o.cwd ?? project, env: { ...env, ...o.env } }),
    run: (command, args, o = {}) => exec(command, args, { cwd: o.cwd ?? project, env: { ...env, ...o.env }, input: o.input }),
    async close() {
      await stopResident(join(home, '.strata'));
      await server.close();
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
  return sandbox;
}

/** The tail of every log under the Strata home (resident, hooks, workers): what a failing test prints. */
export async function strataLogs(strataHome: string, maxChars = 6_000): Promise<string> {
  const dir = join(strataHome, 'logs');
  const names = await readdir(dir).catch(() => [] as string[]);
  const parts = await Promise.all(
    names.map(async (name) => `--- ${name}\n${(await readFile(join(dir, name), 'utf8').catch(() => '')).slice(-maxChars)}`),
  );
  return parts.join('\n');
}

/** Stops the resident Strata process of a home (started by this test's hooks) and waits for it. */
export async function stopResident(strataHome: string): Promise<void> {
  const info = await readFile(join(strataHome, 'run', 'resident.json'), 'utf8').then(
    (t) => JSON.parse(t) as { pid: number },
    () => undefined,
  );
  if (!info) return;
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(info.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Occurrences of `needle` in a model request (system prompt, messages, tool results). */
export function occurrences(request: MessagesRequest, needle: string): number {
  return request.rawBody.split(needle).length - 1;
}
