/**
 * A stand-in for the OpenClaw gateway (which needs Node >= 24): it implements the plugin API
 * surface of host-formats.md section 2.4/2.5 (api.on with the documented event and ctx shapes,
 * registerTool with factories, registerService, registerCli, pluginConfig, logger) and drives
 * conversations the way the embedded runner does:
 * - `before_prompt_build` gets `{prompt, messages}`; the handlers' `prependContext` values are joined
 *   and put in front of the prompt (`${prependContext}\n\n${prompt}`), and that effective prompt is
 *   what the session persists as the user message (the feedback-loop pitfall, 2.7);
 * - `before_agent_finalize` (awaited) gets the session's messages including the final reply, on a
 *   successful turn, before the reply is delivered;
 * - `agent_end` gets the cumulative snapshot of the whole session plus `success`.
 * Differences from the real host, on purpose: `agent_end` is awaited (OpenClaw fires and forgets)
 * so tests are deterministic, unless a turn asks for `agentEnd: 'lost'` — what 2026.9.2's
 * `agent --local` does when it exits before the hook finishes; no hook timeouts are enforced.
 */
import { Command } from 'commander';
import type {
  OpenClawHookContext,
  OpenClawHookMap,
  OpenClawMemoryCapability,
  OpenClawPluginApi,
  OpenClawRegistrationMode,
  OpenClawService,
  OpenClawTool,
  ToolFactory,
  ToolFactoryContext,
  ToolResult,
} from '../../src/hosts/openclaw/types.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

interface HookEntry {
  handler: (event: unknown, ctx: OpenClawHookContext) => Promise<unknown>;
  priority: number;
}

export interface PluginLike {
  id: string;
  kind?: string;
  register(api: OpenClawPluginApi): void;
}

export interface TurnResult {
  /** What the plugins injected (joined as the host does), if anything. */
  prependContext?: string;
  /** The user message as the session stored it (injection included). */
  effectivePrompt: string;
}

export class OpenClawHarness {
  readonly logs: LogEntry[] = [];
  private readonly hooks = new Map<string, HookEntry[]>();
  private readonly tools = new Map<string, OpenClawTool | ToolFactory>();
  private readonly services: OpenClawService[] = [];
  private readonly cliRegistrars: Array<{ registrar: (ctx: { program: Command }) => void | Promise<void>; commands: string[] }> = [];
  readonly api: OpenClawPluginApi;
  /** What the plugin passed to `registerMemoryCapability`, if anything. */
  memoryCapability: OpenClawMemoryCapability | undefined;

  constructor(options: { pluginConfig: unknown; registrationMode?: OpenClawRegistrationMode; runtime?: unknown }) {
    const log = (level: LogEntry['level']) => (message: string) => void this.logs.push({ level, message });
    this.api = {
      ...(options.registrationMode ? { registrationMode: options.registrationMode } : {}),
      ...(options.runtime ? { runtime: options.runtime } : {}),
      registerMemoryCapability: (capability) => void (this.memoryCapability = capability),
      pluginConfig: options.pluginConfig,
      config: { plugins: {} },
      logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
      resolvePath: (p) => p,
      on: (hook, handler, opts) => {
        const list = this.hooks.get(hook) ?? [];
        list.push({ handler: handler as HookEntry['handler'], priority: opts?.priority ?? 0 });
        list.sort((a, b) => b.priority - a.priority);
        this.hooks.set(hook, list);
      },
      registerTool: (tool, opts) => {
        const name = typeof tool === 'function' ? opts?.name : tool.name;
        if (!name) throw new Error('registerTool: a factory needs opts.name');
        if (this.tools.has(name)) throw new Error(`tool ${name} registered twice`);
        this.tools.set(name, tool);
      },
      registerCli: (registrar, opts) => void this.cliRegistrars.push({ registrar, commands: opts.commands }),
      registerService: (service) => void this.services.push(service),
    };
  }

  load(plugin: PluginLike): this {
    plugin.register(this.api);
    return this;
  }

  hookNames(): string[] {
    return [...this.hooks.keys()].sort();
  }

  toolNames(): string[] {
    return [...this.tools.keys()].sort();
  }

  /** Runs every handler of a hook in priority order; returns their non-empty results. */
  async emit<K extends keyof OpenClawHookMap>(
    hook: K,
    event: Parameters<OpenClawHookMap[K]>[0],
    ctx: OpenClawHookContext,
  ): Promise<unknown[]> {
    const results: unknown[] = [];
    for (const entry of this.hooks.get(hook) ?? []) {
      const result = await entry.handler(event, ctx);
      if (result !== undefined) results.push(result);
    }
    return results;
  }

  /** Instantiates a tool for an agent run (factories get `{agentId, sessionKey}`) and calls it. */
  async callTool(name: string, params: unknown, ctx: { agentId?: string; sessionKey?: string } = {}): Promise<ToolResult> {
    const entry = this.tools.get(name);
    if (!entry) throw new Error(`no tool ${name}`);
    const tool = typeof entry === 'function' ? entry(ctx) : entry;
    if (!tool) throw new Error(`tool ${name} declined this context`);
    return tool.execute(`call-${Math.random().toString(36).slice(2)}`, params);
  }

  /** The tools an agent run with this context is offered (factories that decline it are left out). */
  offeredTools(ctx: ToolFactoryContext): OpenClawTool[] {
    return [...this.tools.values()]
      .map((entry) => (typeof entry === 'function' ? entry(ctx) : entry))
      .filter((t): t is OpenClawTool => !!t);
  }

  tool(name: string, ctx: { agentId?: string } = {}): OpenClawTool {
    const entry = this.tools.get(name);
    const tool = typeof entry === 'function' ? entry(ctx) : entry;
    if (!tool) throw new Error(`no tool ${name}`);
    return tool;
  }

  async startServices(): Promise<void> {
    for (const s of this.services) await s.start({ stateDir: '/tmp', logger: this.api.logger });
  }

  async stopServices(): Promise<void> {
    for (const s of [...this.services].reverse()) await s.stop?.({ stateDir: '/tmp', logger: this.api.logger });
  }

  /** `openclaw <argv...>` with the plugins' CLI registrars; returns what the commands printed to stdout. */
  async runCli(argv: string[]): Promise<string> {
    const program = new Command('openclaw').exitOverride();
    for (const { registrar } of this.cliRegistrars) await registrar({ program });
    let out = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      return true;
    }) as typeof process.stdout.write;
    try {
      await program.parseAsync(argv, { from: 'user' });
    } finally {
      process.stdout.write = write;
    }
    return out;
  }

  serviceIds(): string[] {
    return this.services.map((s) => s.id);
  }

  cliCommands(): string[] {
    return this.cliRegistrars.flatMap((r) => r.commands);
  }

  session(options: { agentId?: string; sessionKey: string; sessionId?: string }): HarnessSession {
    return new HarnessSession(this, options);
  }
}

/** One chat session: a growing message list, as OpenClaw keeps it. */
export class HarnessSession {
  readonly messages: unknown[] = [];
  private clock = Date.parse('2026-11-01T10:00:00Z');

  constructor(
    private readonly host: OpenClawHarness,
    readonly ctx: { agentId?: string; sessionKey: string; sessionId?: string },
  ) {}

  private hookCtx(): OpenClawHookContext {
    return { ...this.ctx, sessionId: this.ctx.sessionId ?? `${this.ctx.sessionKey}-id`, runId: `run-${this.messages.length}` };
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  /** One user turn: prompt hooks, the (scripted) assistant reply, then `agent_end` with the whole session. */
  async turn(prompt: string, options: { reply?: string; success?: boolean; agentEnd?: 'awaited' | 'lost' } = {}): Promise<TurnResult> {
    const results = (await this.host.emit('before_prompt_build', { prompt, messages: [...this.messages] }, this.hookCtx())) as Array<{
      prependContext?: string;
    }>;
    const injected = results.map((r) => r.prependContext).filter((t): t is string => Boolean(t));
    const prependContext = injected.length > 0 ? injected.join('\n\n') : undefined;
    const effectivePrompt = prependContext ? `${prependContext}\n\n${prompt}` : prompt;
    this.messages.push({ role: 'user', content: [{ type: 'text', text: effectivePrompt }], timestamp: this.tick() });
    const success = options.success ?? true;
    if (success) {
      this.messages.push({
        role: 'assistant',
        content: [{ type: 'text', text: options.reply ?? `Noted: ${prompt.slice(0, 40)}` }],
        timestamp: this.tick(),
        stopReason: 'stop',
      });
      const ctx = this.hookCtx();
      await this.host.emit(
        'before_agent_finalize',
        { sessionId: ctx.sessionId!, sessionKey: ctx.sessionKey, messages: [...this.messages], lastAssistantMessage: options.reply },
        ctx,
      );
    }
    if (options.agentEnd === 'lost') return { prependContext, effectivePrompt };
    await this.host.emit(
      'agent_end',
      { messages: [...this.messages], success, durationMs: 5, ...(success ? {} : { error: 'aborted' }) },
      this.hookCtx(),
    );
    return { prependContext, effectivePrompt };
  }

  async end(reason = 'idle'): Promise<void> {
    const ctx = this.hookCtx();
    await this.host.emit(
      'session_end',
      { sessionId: ctx.sessionId!, sessionKey: this.ctx.sessionKey, messageCount: this.messages.length, reason },
      ctx,
    );
  }

  async reset(): Promise<void> {
    await this.host.emit('before_reset', { messages: [...this.messages], reason: 'reset' }, this.hookCtx());
    this.messages.length = 0;
  }

  async compact(): Promise<void> {
    await this.host.emit(
      'before_compaction',
      { messages: [...this.messages], messageCount: this.messages.length } as never,
      this.hookCtx(),
    );
  }
}
