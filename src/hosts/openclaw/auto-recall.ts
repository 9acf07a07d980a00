/**
 * Automatic recall for `before_prompt_build`. The hook is awaited by OpenClaw before every model
 * call, so it must never stall a turn: each recall is bounded by a timeout, and after a timeout
 * that agent's automatic recall pauses for a cooldown (a slow or dead embedder then costs one
 * timeout per cooldown window, not one per turn).
 */
import { cleanQuery } from '../../core/recall/query-cleanup.js';
import type { AutoRecallEngine } from './backend.js';
import type { BeforePromptBuildEvent, OpenClawLogger, PromptBuildResult } from './types.js';

export interface AutoRecallOptions {
  timeoutMs: number;
  cooldownMs: number;
  limit: number;
  maxTokens: number;
  logger: OpenClawLogger;
  now?: () => number;
  /** Longest wait for the engine's warm-up, once per process (default WARM_UP_LIMIT_MS). */
  warmUpLimitMs?: number;
}

export type AutoRecallOutcome = 'injected' | 'empty' | 'gated' | 'timeout' | 'opening' | 'cooldown' | 'error';

/** How long the first recall of a process may wait for the store and embedder to load. */
export const WARM_UP_LIMIT_MS = 20_000;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) =>
      b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text ?? '') : '',
    )
    .filter(Boolean)
    .join('\n');
}

/** The newest user message's text; accepts plain `{role, content}` and OpenClaw `{type:'message', message}` entries. */
export function latestUserText(messages: readonly unknown[] | undefined): string | undefined {
  for (let i = (messages?.length ?? 0) - 1; i >= 0; i -= 1) {
    let m = messages![i] as Record<string, unknown> | null;
    if (m && typeof m === 'object' && m.type === 'message' && m.message && typeof m.message === 'object')
      m = m.message as Record<string, unknown>;
    if (m && typeof m === 'object' && m.role === 'user') {
      const text = textOf(m.content);
      if (text.trim()) return text;
    }
  }
  return undefined;
}

/** The query for this turn: the current prompt, else the newest user message, with envelopes and injected blocks removed. */
export function recallQueryOf(event: BeforePromptBuildEvent): string {
  const fromPrompt = typeof event.prompt === 'string' ? cleanQuery({ text: event.prompt }).text : '';
  if (fromPrompt) return fromPrompt;
  return cleanQuery({ text: latestUserText(event.messages) ?? '' }).text;
}

export class AutoRecall {
  private readonly cooldownUntil = new Map<string, number>();
  /** Set once a warm-up outlived its limit: later turns do not wait for it again (timeouts take over). */
  private warmUpOverdue = false;

  constructor(private readonly options: AutoRecallOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /**
   * Runs one automatic recall for `agent` with `scopes`; returns the hook result and what happened.
   * `ready` (the engine's warm-up) is awaited first and is not part of the recall's time budget: a
   * process that just started loads its store and embedder once, and that alone never skips a recall.
   */
  async run(options: {
    event: BeforePromptBuildEvent;
    agentId: string;
    ready?: () => Promise<void>;
    resolve: () => Promise<{ engine: AutoRecallEngine; scopes: string[] }>;
  }): Promise<{ outcome: AutoRecallOutcome; result?: PromptBuildResult }> {
    const { agentId } = options;
    const until = this.cooldownUntil.get(agentId) ?? 0;
    if (this.now() < until) return { outcome: 'cooldown' };
    const query = recallQueryOf(options.event);
    if (!query) return { outcome: 'gated' };
    if (options.ready && !this.warmUpOverdue) {
      const limitMs = this.options.warmUpLimitMs ?? WARM_UP_LIMIT_MS;
      let limit: NodeJS.Timeout | undefined;
      const warmed = await Promise.race([
        options.ready().then(() => true),
        new Promise<false>((resolve) => (limit = setTimeout(() => resolve(false), limitMs))),
      ]).finally(() => clearTimeout(limit));
      if (!warmed) {
        this.warmUpOverdue = true;
        this.options.logger.warn(
          `strata: the memory store and embedder are still loading after ${limitMs} ms; this turn goes on without memories.`,
        );
        return { outcome: 'opening' };
      }
    }

    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.timeoutMs);
    });
    let opened = false;
    const work = (async () => {
      const { engine, scopes } = await options.resolve();
      opened = true;
      return engine.autoRecall({
        query,
        scopes,
        limit: this.options.limit,
        maxTokens: this.options.maxTokens,
        abortSignal: controller.signal,
      });
    })();
    // The abandoned recall may still fail later; that must not surface as an unhandled rejection.
    work.catch(() => undefined);
    try {
      const raced = await Promise.race([work, timeout]);
      if (raced === 'timeout') {
        controller.abort();
        // Opening the store once (first turn after start) is not a slow embedder: no cooldown for it.
        if (!opened) {
          this.options.logger.warn(
            `strata: memory store still opening after ${this.options.timeoutMs} ms; this turn goes on without memories.`,
          );
          return { outcome: 'opening' };
        }
        this.cooldownUntil.set(agentId, this.now() + this.options.cooldownMs);
        this.options.logger.warn(
          `strata: automatic recall took over ${this.options.timeoutMs} ms; skipped, and paused for agent ${agentId} for ${this.options.cooldownMs} ms.`,
        );
        return { outcome: 'timeout' };
      }
      if (!raced.recalled) return { outcome: 'gated' };
      if (!raced.block) return { outcome: 'empty' };
      return { outcome: 'injected', result: { prependContext: raced.block } };
    } catch (error) {
      this.options.logger.warn(
        `strata: automatic recall failed (${(error as Error).message ?? String(error)}); the turn goes on without memories.`,
      );
      return { outcome: 'error' };
    } finally {
      clearTimeout(timer);
    }
  }
}
