/**
 * The fallback when no resident Strata process can run: the hook opens the engine itself (a cold
 * start per call), captures synchronously (indexing within a budget) and leaves the rest to one
 * detached `strata worker --once` pass: indexing and embedding, and distillation when enabled.
 */
import type { Strata } from '../../strata.js';
import { cliLauncher, startBackground } from './background.js';
import { captureTranscript } from './capture-ops.js';
import { promptSubmit, sessionStart, type HookAnswer } from './context-ops.js';
import { appendHookError } from '../../resident/hook-log.js';
import { InjectionStore } from './injections.js';
import { HookInputError, type HookOpInput } from './payload.js';
import { hookCaller, sessionJournalArgs } from './resident-ops.js';
import { claudeCodeLlmOverrides, llmEnvFor } from './host-llm.js';

/** Time a capture waits for conversation indexing; the worker pass indexes the rest. */
const CAPTURE_INDEX_BUDGET_MS = 500;

export async function runHookInProcess(options: {
  home: string;
  agentId?: string;
  input: HookOpInput;
  env: NodeJS.ProcessEnv;
}): Promise<HookAnswer> {
  const { input, env } = options;
  const [{ Strata }, { loadConfig }] = await Promise.all([import('../../strata.js'), import('../../config/load.js')]);
  const loaded = await loadConfig({ home: options.home, env });
  const strata: Strata = await Strata.open({ home: options.home, env, overrides: claudeCodeLlmOverrides({ loaded, env }) });
  try {
    const caller = hookCaller(strata, options.agentId);
    const { agentId } = caller;
    const deps = { strata, ...caller, injections: new InjectionStore({ home: strata.home }) };
    if (input.event === 'SessionStart') return await sessionStart(deps, input);
    if (input.event === 'UserPromptSubmit') return await promptSubmit(deps, input);
    if (!input.transcriptPath) throw new HookInputError(`${input.event} hook input has no transcript_path: nothing to capture.`);
    const result = await captureTranscript({
      strata,
      agentId,
      transcriptPath: input.transcriptPath,
      env,
      index: { budgetMs: CAPTURE_INDEX_BUDGET_MS },
    });
    for (const e of result.errors) {
      appendHookError(strata.home, {
        event: input.event,
        sessionId: input.sessionId,
        code: 'CAPTURE_FAILED',
        message: `${e.path}: ${e.message}`,
        where: 'in-process',
      });
    }
    // One worker pass: indexing, distillation, and the session's journal entry and summaries at
    // PreCompact / SessionEnd. SessionEnd also starts a pass with nothing new: it catches up on
    // anything an earlier one deferred.
    const journal = sessionJournalArgs(strata, input) ?? [];
    if (result.newMessages > 0 || !result.indexDone || input.event === 'SessionEnd' || journal.length > 0) {
      const args = ['worker', '--once', ...(input.distill ? [] : ['--no-distill']), ...journal];
      startBackground({ home: strata.home, agentId, launcher: cliLauncher(), env: llmEnvFor(strata.config, env), args });
    }
    return {};
  } finally {
    await strata.close();
  }
}
