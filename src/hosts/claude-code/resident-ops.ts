/**
 * The Claude Code hook operations as the resident Strata process runs them: one warm engine for
 * every hook call of the home. Captures run in the resident's own queue, so they finish even when
 * Claude Code exits (2.1.197 `-p` kills async hooks at exit and fires no SessionEnd), and the
 * transcript is read once more after it settles (Claude Code writes it asynchronously; 2.1.197
 * `-p` writes a first turn only at exit). Distillation follows in a second queue.
 */
import { resolve } from 'node:path';
import { llmProviderOf } from '../../config/schema.js';
import { resolveCaller } from '../../core/caller.js';
import type { ResidentOp, ResidentOpContext } from '../../resident/server.js';
import type { Strata } from '../../strata.js';
import { HOOK_GUARD_ENV, cliLauncher, startBackground } from './background.js';
import { captureTranscript, claudeRootOf, embedPendingConversations } from './capture-ops.js';
import { promptSubmit, sessionStart, type ContextOpDeps, type HookAnswer } from './context-ops.js';
import { appendHookError } from '../../resident/hook-log.js';
import { llmEnvFor } from './host-llm.js';
import { InjectionStore } from './injections.js';
import { HookInputError, hookOpInput, type HookOpInput } from './payload.js';

export const DEFAULT_AGENT_ID = 'claude-code';
/** When the transcript is read again after a capture hook (the host may still be writing it). */
export const LATE_CAPTURE_MS = 3_000;
/** How long a capture hook waits for its capture before answering (the capture continues either way). */
const CAPTURE_WAIT_MS = 5_000;

/**
 * The one caller resolver: the hook's `--agent` (install pins it) or `$STRATA_AGENT_ID`, else
 * `scopes.defaultAgent`, else `claude-code`. An id that cannot form a scope is refused before
 * anything is read or captured under it.
 */
export function hookCaller(strata: Strata, agentId: string | undefined): { agentId: string; scopes: string[] } {
  const caller = resolveCaller({ config: strata.config, agentId, fallbackAgentId: DEFAULT_AGENT_ID });
  return { agentId: caller.agentId ?? DEFAULT_AGENT_ID, scopes: caller.scopes };
}

/**
 * PreCompact / SessionEnd with an LLM configured: the session's journal entry and a summaries pass,
 * by the one background worker (`strata worker --once --journal-session <id> --transcript <path>`),
 * undefined otherwise.
 */
export function sessionJournalArgs(strata: Strata, input: HookOpInput): string[] | undefined {
  if ((input.event !== 'PreCompact' && input.event !== 'SessionEnd') || !input.sessionId || !input.transcriptPath) return undefined;
  if (llmProviderOf({ config: strata.config }) === 'none') return undefined;
  return ['--journal-session', input.sessionId, '--transcript', resolve(input.transcriptPath)];
}

/** Starts the one worker pass for a session's journal (see sessionJournalArgs); false when none is due. */
export function startSessionJournal(options: { strata: Strata; agentId: string; input: HookOpInput; env: NodeJS.ProcessEnv }): boolean {
  const { input, strata } = options;
  const journal = sessionJournalArgs(strata, input);
  if (!journal) return false;
  // The worker's summaries pass belongs to distillation (off with --no-distill); a pass that finds
  // the distill lock taken by the resident skips distilling.
  const args = ['worker', '--once', ...(input.distill ? [] : ['--no-distill']), ...journal];
  startBackground({
    home: strata.home,
    agentId: options.agentId,
    launcher: cliLauncher(),
    env: { ...llmEnvFor(strata.config, options.env), [HOOK_GUARD_ENV]: '1' },
    args,
  });
  return true;
}

async function distillOnce(strata: Strata, agentId: string, signal: AbortSignal): Promise<void> {
  const report = await strata.distill({ agentId, lockTimeoutMs: 30_000, abortSignal: signal });
  if (!signal.aborted) await strata.organizeIfDue({ report, abortSignal: signal });
}

/**
 * Hooks installed twice (user and project settings both) fire twice per event; Claude Code runs
 * them in parallel. The second identical call within this window adds nothing to the context.
 */
const REPEAT_WINDOW_MS = 10_000;

export function claudeCodeResidentOps(): Record<string, ResidentOp<Strata>> {
  let injections: InjectionStore | undefined;
  const recent = new Map<string, number>();
  const repeated = (key: string | undefined): boolean => {
    const now = Date.now();
    for (const [k, at] of recent) if (now - at > REPEAT_WINDOW_MS) recent.delete(k);
    if (key === undefined) return false;
    if (recent.has(key)) return true;
    recent.set(key, now);
    return false;
  };
  const deps = async (ctx: ResidentOpContext<Strata>): Promise<ContextOpDeps> => {
    const strata = await ctx.engine();
    injections ??= new InjectionStore({ home: strata.home });
    return { strata, ...hookCaller(strata, ctx.caller.agentId ?? undefined), injections };
  };

  const capture = async (ctx: ResidentOpContext<Strata>, input: HookOpInput): Promise<HookAnswer> => {
    if (!input.transcriptPath) throw new HookInputError(`${input.event} hook input has no transcript_path: nothing to capture.`);
    const { strata, agentId } = await deps(ctx);
    const path = resolve(input.transcriptPath);
    claudeRootOf(path); // a path outside Claude Code's layout fails the hook now, not a queued task later
    // Background failures reach the hook log (and so `strata doctor` and the next SessionStart).
    const logged = (event: string, task: (signal: AbortSignal) => Promise<void>) => async (signal: AbortSignal) => {
      try {
        await task(signal);
      } catch (error) {
        const e = error as { code?: unknown; message?: unknown };
        appendHookError(strata.home, {
          event,
          sessionId: input.sessionId,
          code: typeof e.code === 'string' ? e.code : 'INTERNAL',
          message: String(e.message ?? error),
          where: 'resident',
        });
        throw error;
      }
    };
    const run = logged(input.event, async (signal) => {
      const result = await captureTranscript({ strata, agentId, transcriptPath: path, abortSignal: signal });
      for (const e of result.errors) {
        appendHookError(strata.home, {
          event: input.event,
          sessionId: input.sessionId,
          code: 'CAPTURE_FAILED',
          message: `${e.path}: ${e.message}`,
          where: 'resident',
        });
      }
      if (result.newMessages === 0) return;
      const slow = ctx.queue('slow');
      void slow.add(
        'embed-conversations',
        logged('embed', (s) => embedPendingConversations({ strata, abortSignal: s }).then(() => undefined)),
      );
      if (input.distill)
        void slow.add(
          `distill:${agentId}`,
          logged('distill', (s) => distillOnce(strata, agentId, s)),
        );
    });
    const captures = ctx.queue('capture');
    const now = captures.add(`capture:${path}`, run);
    void captures.add(`late:${path}`, run, { delayMs: LATE_CAPTURE_MS });
    startSessionJournal({ strata, agentId, input, env: process.env });
    await Promise.race([now, new Promise((r) => setTimeout(r, CAPTURE_WAIT_MS))]);
    return {};
  };

  return {
    'claude-code.session-start': async (ctx, raw) => {
      const input = hookOpInput(raw);
      if (repeated(input.sessionId && `start:${ctx.caller.agentId}:${input.sessionId}:${input.source}`)) return {};
      return sessionStart(await deps(ctx), input);
    },
    'claude-code.prompt': async (ctx, raw) => {
      const input = hookOpInput(raw);
      if (repeated(input.sessionId && `prompt:${ctx.caller.agentId}:${input.sessionId}:${input.prompt}`)) return {};
      return promptSubmit(await deps(ctx), input);
    },
    'claude-code.capture': async (ctx, raw) => capture(ctx, hookOpInput(raw)),
  };
}
