/**
 * The OpenClaw memory plugin: `register(api)` wires OpenClaw's hooks, tools, CLI, memory capability
 * and service onto one shared engine. A thin translator: recall, capture and distillation are the
 * engine's; this file decides when each runs and keeps every hook from failing or stalling a turn.
 *
 * The memory is local (engine.ts) unless the plugin's `remote`, `STRATA_URL` or Strata's `remote.url`
 * names a `strata serve` service (remote.ts); either way everything below goes through backend.ts.
 *
 * OpenClaw registers a plugin several times per process with different `api.registrationMode`s:
 * `cli-metadata` (building the command tree) and `setup-*` get descriptors only; `discovery` and
 * `tool-discovery` get tools, hooks and the memory capability but open nothing; only `full` adds the
 * service that runs the background workers. Every registration reaches the same engine
 * (engine.ts), which opens on first use and warms before the first recall of a session.
 */
import { z } from 'zod';
import { describeAutoOrganize, type AutoOrganizeResult } from '../../core/layers/auto-organize.js';
import { resolveHome } from '../../config/load.js';
import type { StrataOpenOptions } from '../../strata.js';
import { resolveRemote } from '../../remote/settings.js';
import { AutoRecall } from './auto-recall.js';
import { localBackend, type MemoryBackend } from './backend.js';
import { openClawPluginConfigSchema, parsePluginConfig, PLUGIN_ID, strataOverrides, type OpenClawPluginConfig } from './config.js';
import { messageOf, sharedEngine } from './engine.js';
import { createOpenClawHostLlm, hostLlmRuntimeOf } from './host-llm.js';
import { buildStrataMemorySection, createMemoryRuntime } from './memory-capability.js';
import {
  createOpenClawOrganiserRunner,
  embeddedAgentRuntimeOf,
  isOrganiserSession,
  organiserToolFactories,
  rememberServiceContext,
} from './organiser-runner.js';
import { createToolFactories } from './tools.js';
import type { FlushEvent, OpenClawHookContext, OpenClawPluginApi } from './types.js';

export interface CreateOpenClawPluginOptions {
  /** Extra `Strata.open` options, e.g. an injected embedder (tests, custom providers). */
  openOptions?: Omit<StrataOpenOptions, 'home' | 'overrides'>;
  /** Clock for the recall cooldown. */
  now?: () => number;
}

/** The runtime definition OpenClaw loads. No `kind`: that is deprecated here and lives in the manifest. */
export interface OpenClawPluginDefinition {
  id: string;
  name: string;
  description: string;
  configSchema: Record<string, unknown>;
  register(api: OpenClawPluginApi): void;
}

/** The manifest's `configSchema`, generated from the runtime schema so the two cannot drift. */
export function pluginConfigJsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(openClawPluginConfigSchema, { target: 'draft-7', io: 'input' }) as Record<
    string,
    unknown
  >;
  return schema;
}

const CLI_DESCRIPTORS = [
  { name: 'strata', description: 'Strata memory: list, recall, store, forget, distill, history, export', hasSubcommands: true },
];

/** Indexing time a capture may add to the reply it runs before (before_agent_finalize). */
const FINALIZE_INDEX_BUDGET_MS = 1500;

/** Modes that only want to know what the plugin offers. */
const DESCRIPTOR_ONLY = new Set(['cli-metadata', 'setup-only', 'setup-runtime']);

export function createOpenClawPlugin(options: CreateOpenClawPluginOptions = {}): OpenClawPluginDefinition {
  return {
    id: PLUGIN_ID,
    name: 'Strata memory',
    description: 'Long-term memory for OpenClaw agents: automatic recall, conversation capture and distillation, memory tools.',
    configSchema: pluginConfigJsonSchema(),
    register(api) {
      const mode = api.registrationMode ?? 'full';
      const config = parsePluginConfig(api.pluginConfig);
      const configuredHome = config.home ? (api.resolvePath?.(config.home) ?? config.home) : undefined;

      // The CLI builds its own engine per command (`openclaw strata ...`), loaded only when run.
      api.registerCli(
        async ({ program }) => {
          const { registerStrataCli } = await import('./cli.js');
          registerStrataCli({ program, home: configuredHome, defaultAgent: config.defaultAgent, url: config.remote?.url });
        },
        { commands: ['strata'], descriptors: CLI_DESCRIPTORS },
      );
      if (DESCRIPTOR_ONLY.has(mode)) return;

      const home = resolveHome({ home: configuredHome });
      const overrides = strataOverrides(config);
      const engine = () =>
        sharedEngine({
          home,
          overrides,
          openOptions: options.openOptions as Record<string, unknown> | undefined,
          log: api.logger,
          hostLlm: () => {
            const runtime = hostLlmRuntimeOf(api.runtime);
            return runtime ? createOpenClawHostLlm({ runtime }) : undefined;
          },
          // The organiser runs as a helper session on OpenClaw's embedded runner when it has one;
          // otherwise on the host model through the text tool protocol.
          hostOrganiserRunner: () => {
            const runtime = embeddedAgentRuntimeOf(api.runtime);
            return runtime ? createOpenClawOrganiserRunner({ runtime }) : undefined;
          },
        });
      // Decided on first use (it reads the home's config), once per registration; a failure is retried.
      let chosen: Promise<MemoryBackend> | undefined;
      const backend = (): Promise<MemoryBackend> =>
        (chosen ??= (async () => {
          const settings = await resolveRemote({ url: config.remote?.url, home, overrides });
          if (!settings) return localBackend(engine);
          const { remoteBackend } = await import('./remote.js');
          return remoteBackend({ settings, home, log: api.logger });
        })().catch((error: unknown) => {
          chosen = undefined;
          throw error;
        }));
      registerRuntime({ api, config, backend, now: options.now, full: mode === 'full' });
    },
  };
}

interface RuntimeDeps {
  api: OpenClawPluginApi;
  config: OpenClawPluginConfig;
  backend: () => Promise<MemoryBackend>;
  now?: () => number;
  full: boolean;
}

function registerRuntime({ api, config, backend, now, full }: RuntimeDeps): void {
  const log = api.logger;
  const agentOf = (ctx: OpenClawHookContext) => ctx.agentId || config.defaultAgent;

  const logOrganize = (r: AutoOrganizeResult) => {
    if (r.status === 'failed') log.warn(`strata: ${describeAutoOrganize(r)}`);
    else if (r.status === 'organized') log.info(`strata: ${describeAutoOrganize(r)}`);
    else log.debug?.(`strata: ${describeAutoOrganize(r)}`);
  };

  /** Records what is new in a session snapshot; never throws (hooks must not break the agent). */
  const captureSnapshot = async (
    messages: unknown[],
    ctx: OpenClawHookContext,
    sessionKey?: string,
    index?: { budgetMs: number },
  ): Promise<void> => {
    const key = sessionKey || ctx.sessionKey || ctx.sessionId || 'default';
    if (isOrganiserSession(key)) return; // Strata's own organiser runs are not the user's conversation
    try {
      const result = await (
        await backend()
      ).capture({
        agentId: agentOf(ctx),
        sessionKey: key,
        sessionId: ctx.sessionId,
        messages,
        ...(index ? { index } : {}),
      });
      log.debug?.(`strata: captured ${result.new} new messages (${result.duplicates} duplicates) for ${key}`);
    } catch (error) {
      log.warn(`strata: capture failed: ${messageOf(error)}`);
    }
  };

  const flush = async (event: FlushEvent | undefined, ctx: OpenClawHookContext, sessionKey?: string) => {
    if (isOrganiserSession(sessionKey || ctx.sessionKey)) return;
    if (config.autoCapture && Array.isArray(event?.messages) && event.messages.length > 0)
      await captureSnapshot(event.messages, ctx, sessionKey);
    if (config.distill.onSessionEnd) (await backend().catch(() => undefined))?.distillSoon(logOrganize);
  };

  if (config.autoRecall) {
    const recall = new AutoRecall({
      timeoutMs: config.recallTimeoutMs,
      cooldownMs: config.recallCooldownMs,
      limit: config.recallLimit,
      maxTokens: config.recallMaxTokens,
      logger: log,
      now,
    });
    api.on(
      'before_prompt_build',
      async (event, ctx) => {
        if (isOrganiserSession(ctx.sessionKey)) return undefined; // the organiser's prompt carries its own memories
        const agentId = agentOf(ctx);
        const { outcome, result } = await recall.run({
          event,
          agentId,
          ready: async () => (await backend()).warm(),
          resolve: async () => (await backend()).recaller(agentId),
        });
        log.debug?.(`strata: automatic recall for ${agentId}: ${outcome}`);
        return result;
      },
      { priority: 10 },
    );
  }
  // A new session is the earliest sign a recall is coming: warm up while the prompt is assembled.
  api.on('session_start', async () => {
    void backend().then(
      (b) => b.warm(),
      (error: unknown) => log.warn(`strata: ${messageOf(error)}`),
    );
  });

  if (config.autoCapture) {
    // The turn's last reply is captured before OpenClaw delivers it: it awaits before_agent_finalize,
    // while agent_end is started unawaited and `agent --local` (2026.9.2) exits before it finishes.
    // agent_end still captures what this hook does not see (tool-only endings); the L0 log drops
    // what a second snapshot of the same session repeats.
    // The reply waits for this hook: the L0 append always completes, the index gets a bounded share
    // (a backlog left by the background worker is not indexed on the user's time; the next catch-up
    // takes the rest by its watermark).
    // Snapshot sizes captured before the reply, per session. agent_end repeats the same snapshot; on
    // 2026.9.2 `agent --local` exits while that repeat holds the capture lock, and the next run waited
    // for the abandoned lock to go stale (about 5 s per turn). A snapshot no longer than the one
    // captured already is skipped.
    const finalized = new Map<string, number>();
    const keyOf = (ctx: OpenClawHookContext, sessionKey?: string) => sessionKey || ctx.sessionKey || ctx.sessionId || 'default';
    api.on('before_agent_finalize', async (event, ctx) => {
      if (!Array.isArray(event.messages) || event.messages.length === 0) return;
      await captureSnapshot(event.messages, ctx, event.sessionKey, { budgetMs: FINALIZE_INDEX_BUDGET_MS });
      finalized.set(keyOf(ctx, event.sessionKey), event.messages.length);
    });
    api.on('agent_end', async (event, ctx) => {
      // A failed or aborted run may hold half a turn; the next successful snapshot includes it.
      if (!event.success || !Array.isArray(event.messages)) return;
      const key = keyOf(ctx);
      const captured = finalized.get(key);
      finalized.delete(key);
      if (captured !== undefined && event.messages.length <= captured) return;
      await captureSnapshot(event.messages, ctx);
    });
  }
  api.on('session_end', (event, ctx) => flush(undefined, ctx, event.sessionKey));
  api.on('before_reset', (event, ctx) => flush(event, ctx));
  api.on('before_compaction', (event, ctx) => flush(event, ctx));

  for (const { name, factory } of createToolFactories({
    ops: async (agentId) => (await backend()).ops(agentId),
    defaultAgent: config.defaultAgent,
  })) {
    api.registerTool(factory, { name });
  }
  // The scene tools exist only inside an organiser run this process started (see organiser-runner.ts).
  for (const { name, factory } of organiserToolFactories()) api.registerTool(factory, { name });

  api.registerMemoryCapability?.({
    promptBuilder: (params) => buildStrataMemorySection(params, { autoRecall: config.autoRecall }),
    flushPlanResolver: () => null,
    runtime: createMemoryRuntime({ ops: async (agentId) => (await backend()).ops(agentId), defaultAgent: config.defaultAgent }),
  });

  if (!full) return;
  api.registerService({
    id: PLUGIN_ID,
    async start() {
      rememberServiceContext(); // organiser runs start from here, not from the turn that triggered them
      try {
        const memory = await backend();
        void memory.warm();
        await memory.startWorkers({ distill: config.distill.enabled, onOrganize: logOrganize });
      } catch (error) {
        log.warn(`strata: could not start the background worker: ${messageOf(error)}`);
      }
    },
    async stop() {
      await (await backend().catch(() => undefined))?.stop();
    },
  });
}
