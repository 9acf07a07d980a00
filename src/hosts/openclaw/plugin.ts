/**
 * The OpenClaw memory plugin: `register(api)` wires OpenClaw's hooks, tools, CLI and service onto
 * the engine. A thin translator: recall, capture and distillation are the engine's; this file only
 * decides when each runs and keeps every hook from failing or stalling the agent.
 */
import { z } from 'zod';
import type { BackgroundWorker } from '../../core/worker/background-worker.js';
import { describeAutoOrganize, type AutoOrganizeResult } from '../../core/layers/auto-organize.js';
import { StrataError } from '../../errors/index.js';
import { Strata, type StrataOpenOptions } from '../../strata.js';
import { resolveCaller } from '../mcp/caller.js';
import { AutoRecall } from './auto-recall.js';
import { CLI_COMMANDS, registerStrataCli } from './cli.js';
import { openClawPluginConfigSchema, parsePluginConfig, PLUGIN_ID, strataOverrides } from './config.js';
import { createToolFactories } from './tools.js';
import type { FlushEvent, OpenClawHookContext, OpenClawPluginApi } from './types.js';

export interface CreateOpenClawPluginOptions {
  /** Extra `Strata.open` options, e.g. an injected embedder (tests, custom providers). */
  openOptions?: Omit<StrataOpenOptions, 'home' | 'overrides'>;
  /** Clock for the recall cooldown. */
  now?: () => number;
}

export interface OpenClawPluginDefinition {
  id: string;
  name: string;
  description: string;
  kind: 'memory';
  configSchema: Record<string, unknown>;
  register(api: OpenClawPluginApi): void;
}

/** The manifest's `configSchema`, generated from the runtime schema so the two cannot drift. */
export function pluginConfigJsonSchema(): Record<string, unknown> {
  const { $schema: _drop, ...schema } = z.toJSONSchema(openClawPluginConfigSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return schema;
}

function messageOf(error: unknown): string {
  return StrataError.isInstance(error) ? `[${error.code}] ${error.message}` : (error as Error)?.message ?? String(error);
}

export function createOpenClawPlugin(options: CreateOpenClawPluginOptions = {}): OpenClawPluginDefinition {
  return {
    id: PLUGIN_ID,
    name: 'Strata memory',
    description: 'Long-term memory for OpenClaw agents: automatic recall, conversation capture and distillation, memory tools.',
    kind: 'memory',
    configSchema: pluginConfigJsonSchema(),
    register(api) {
      const config = parsePluginConfig(api.pluginConfig);
      const home = config.home ? (api.resolvePath?.(config.home) ?? config.home) : undefined;
      const log = api.logger;
      let opening: Promise<Strata> | undefined;
      const strata = (): Promise<Strata> => {
        opening ??= Strata.open({ ...options.openOptions, home, overrides: strataOverrides(config) }).catch((error: unknown) => {
          opening = undefined; // a later hook retries (e.g. after the user fixed the config)
          throw error;
        });
        return opening;
      };
      let worker: BackgroundWorker | undefined;
      const pending = new Set<Promise<unknown>>();
      let distilling = false;

      const agentOf = (ctx: OpenClawHookContext) => ctx.agentId || config.defaultAgent;
      const scopesFor = async (agentId: string) => {
        const s = await strata();
        return { engine: s, scopes: resolveCaller({ config: s.config, agentId, env: {} }).scopes };
      };

      /** Records what is new in a session snapshot; never throws (hooks must not break the agent). */
      const captureSnapshot = async (messages: unknown[], ctx: OpenClawHookContext, sessionKey?: string): Promise<void> => {
        try {
          const s = await strata();
          const key = sessionKey || ctx.sessionKey || ctx.sessionId || 'default';
          // Appends to the L0 log and indexes for conversation search; the worker hears of the new messages.
          const result = await s.capture({ agentId: agentOf(ctx), sessionKey: key, sessionId: ctx.sessionId, messages, host: 'openclaw' });
          log.debug?.(`strata: captured ${result.new} new messages (${result.duplicates} duplicates) for ${key}`);
        } catch (error) {
          log.warn(`strata: capture failed: ${messageOf(error)}`);
        }
      };

      // Automatic scene organisation after distillation (config layers.organizer); never throws.
      // Stopping the service aborts an organiser run (its scenes are restored) rather than waiting minutes.
      let stopping = new AbortController();
      const logOrganize = (r: AutoOrganizeResult) => {
        if (r.status === 'failed') log.warn(`strata: ${describeAutoOrganize(r)}`);
        else if (r.status === 'organized') log.info(`strata: ${describeAutoOrganize(r)}`);
        else log.debug?.(`strata: ${describeAutoOrganize(r)}`);
      };

      /** Starts one distillation in the background (skipped if one is already running here). */
      const distillSoon = () => {
        if (!config.distill.onSessionEnd || distilling) return;
        distilling = true;
        const run = strata()
          .then(async (s) => {
            const report = await s.distill({ lockTimeoutMs: 0 });
            log.info(`strata: distilled ${report.messages.distilled} messages into ${report.admitted} memories`);
            await s.organizeIfDue({ report, onResult: logOrganize, abortSignal: stopping.signal });
          })
          .catch((error: unknown) => {
            // Another process holds the distill lock: it is doing this work already.
            if (!(StrataError.isInstance(error) && error.code === 'STORE_LOCKED')) log.warn(`strata: distillation failed: ${messageOf(error)}`);
          })
          .finally(() => {
            distilling = false;
            pending.delete(run);
          });
        pending.add(run);
      };

      const flush = async (event: FlushEvent | undefined, ctx: OpenClawHookContext, sessionKey?: string) => {
        if (config.autoCapture && Array.isArray(event?.messages) && event.messages.length > 0) await captureSnapshot(event.messages, ctx, sessionKey);
        distillSoon();
      };

      if (config.autoRecall) {
        const recall = new AutoRecall({ timeoutMs: config.recallTimeoutMs, cooldownMs: config.recallCooldownMs, limit: config.recallLimit, maxTokens: config.recallMaxTokens, logger: log, now: options.now });
        api.on('before_prompt_build', async (event, ctx) => {
          const agentId = agentOf(ctx);
          const { outcome, result } = await recall.run({ event, agentId, resolve: () => scopesFor(agentId) });
          log.debug?.(`strata: automatic recall for ${agentId}: ${outcome}`);
          return result;
        }, { priority: 10 });
      }

      if (config.autoCapture) {
        api.on('agent_end', async (event, ctx) => {
          // A failed or aborted run may hold half a turn; the next successful snapshot includes it.
          if (!event.success || !Array.isArray(event.messages)) return;
          await captureSnapshot(event.messages, ctx);
        });
      }
      api.on('session_end', (event, ctx) => flush(undefined, ctx, event.sessionKey));
      api.on('before_reset', (event, ctx) => flush(event, ctx));
      api.on('before_compaction', (event, ctx) => flush(event, ctx));

      for (const { name, factory } of createToolFactories({ strata, defaultAgent: config.defaultAgent })) {
        api.registerTool(factory, { name });
      }

      api.registerCli(({ program }) => {
        registerStrataCli({ program, home, defaultAgent: config.defaultAgent });
      }, { commands: CLI_COMMANDS });

      api.registerService({
        id: PLUGIN_ID,
        async start() {
          const s = await strata();
          // Loads the embedder (a local model loads on first use) before the first turn needs it;
          // the scope is empty on purpose so no memory's access statistics are touched.
          const warm = s.recall({ query: 'warm-up', scopes: ['custom:strata-warm-up'], limit: 1 })
            .catch((e: unknown) => log.warn(`strata: warm-up recall failed: ${messageOf(e)}`));
          pending.add(warm);
          void warm.finally(() => pending.delete(warm));
          // Conversation indexing and embedding always run; distillation (and summaries) when enabled.
          worker = s.createWorker({
            distill: config.distill.enabled,
            onOrganize: logOrganize,
            onEvent: (e) => {
              if ('error' in e) log.warn(`strata: background ${e.task} failed: ${messageOf(e.error)}`);
              else if (e.task === 'distill') log.info(`strata: distilled ${e.report.messages.distilled} messages into ${e.report.admitted} memories`);
              else if (e.task === 'summaries' && e.report.chunksSummarised > 0) log.info(`strata: summarised ${e.report.chunksSummarised} conversation chunks`);
            },
          });
          worker.start();
        },
        async stop() {
          stopping.abort();
          await worker?.stop();
          worker = undefined;
          await Promise.allSettled([...pending]);
          stopping = new AbortController(); // a restarted service organises again
          const open = opening;
          opening = undefined;
          if (open) await (await open.catch(() => undefined))?.close();
        },
      });
    },
  };
}
