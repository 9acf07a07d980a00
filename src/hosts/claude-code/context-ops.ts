/**
 * The two hooks that put memory into Claude Code's context. SessionStart: the layered bootstrap
 * (persona, scenes, the agent's memories) plus a status note when hooks failed since the last
 * session start; UserPromptSubmit: recall for the prompt. Neither repeats a memory the session
 * already holds (see injections.ts), so each memory reaches a model request at most once.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContextSource } from '../../core/layers/context.js';
import { formatContextBlock } from '../../core/recall/context-format.js';
import { shouldRecall } from '../../core/recall/gate.js';
import type { Strata } from '../../strata.js';
import { buildSessionContext } from './bootstrap.js';
import { describeHookError, recentHookErrors } from '../../resident/hook-log.js';
import { alreadyInjected, writeStateFile, type InjectionStore } from './injections.js';

/** Budget for the UserPromptSubmit recall block (the host caps additionalContext at 10,000 chars). */
export const PROMPT_RECALL_TOKENS = 800;

export interface ContextOpDeps {
  strata: Strata;
  agentId: string;
  scopes: string[];
  injections: InjectionStore;
}

export interface HookAnswer {
  /** Exactly what the hook prints (protocol JSON), or undefined for nothing. */
  stdout?: string;
}

export function contextOutput(
  event: 'SessionStart' | 'UserPromptSubmit',
  additionalContext: string,
  systemMessage?: string,
): string | undefined {
  if (!additionalContext && !systemMessage) return undefined;
  return JSON.stringify({ ...(systemMessage ? { systemMessage } : {}), hookSpecificOutput: { hookEventName: event, additionalContext } });
}

/** Summaries are keyed like captured conversations: `claude-code:<project folder>/<session id>`. */
export function sessionKeyOf(transcriptPath: string | undefined, sessionId: string | undefined): string | undefined {
  if (!transcriptPath || !sessionId) return undefined;
  const parts = transcriptPath.split(/[\\/]/);
  const project = parts.at(-2);
  return project ? `claude-code:${project}/${sessionId}` : undefined;
}

/** A memory source that hides what the session already holds. */
function unseen(strata: Strata, blocks: readonly string[]): ContextSource {
  return {
    home: strata.home,
    recall: async (options) => {
      const result = await strata.recall(options);
      return { ...result, results: result.results.filter((r) => !alreadyInjected(blocks, r.record.text)) };
    },
    list: async (options) => (await strata.list(options)).filter((r) => !alreadyInjected(blocks, r.text)),
  };
}

/** Sections (persona, scenes, summaries) the session already holds verbatim are not sent again. */
function dropRepeatedSections(text: string, blocks: readonly string[]): string {
  const kept = text.replace(/<(persona|scenes|session-history)>\n[\s\S]*?\n<\/\1>\n?/g, (section) =>
    blocks.some((b) => b.includes(section.trimEnd())) ? '' : section,
  );
  // Only the wrapper left: nothing new to say.
  return /^<agent-context[^>]*>\n<\/agent-context>$/.test(kept.trim()) ? '' : kept;
}

interface StatusState {
  lastSessionStart?: string;
}

/** Failures since the previous session start (of any session), as a note for the model, or ''. */
async function statusNote(home: string, now: Date): Promise<string> {
  const path = join(home, 'state', 'claude-code', 'status.json');
  const state = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as StatusState;
  const since = state.lastSessionStart ?? new Date(now.getTime() - 86_400_000).toISOString();
  const errors = await recentHookErrors({ home, since });
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeStateFile(path, JSON.stringify({ lastSessionStart: now.toISOString() })).catch(() => undefined);
  if (errors.length === 0) return '';
  return [
    '<strata-status>',
    `Strata memory hooks failed ${errors.length} time(s) since the last session start; memories may be missing or out of date.`,
    `Latest: ${describeHookError(errors.at(-1)!)}`,
    'If the user relies on remembered context, mention this and suggest running `strata doctor`.',
    '</strata-status>',
  ].join('\n');
}

export async function sessionStart(
  deps: ContextOpDeps,
  input: { sessionId?: string; transcriptPath?: string; source?: string },
): Promise<HookAnswer> {
  const { strata } = deps;
  // startup/clear/compact begin with an empty context; resume and fork replay the old one.
  const fresh = input.source === undefined || ['startup', 'clear', 'compact'].includes(input.source);
  const blocks = await deps.injections.begin({ sessionId: input.sessionId, transcriptPath: input.transcriptPath, fresh });
  const built = await buildSessionContext({
    strata: unseen(strata, blocks),
    agentId: deps.agentId,
    scopes: deps.scopes,
    sessionKey: sessionKeyOf(input.transcriptPath, input.sessionId),
  });
  const context = dropRepeatedSections(built, blocks);
  const note = await statusNote(strata.home, new Date());
  const text = [note, context].filter(Boolean).join('\n');
  if (context) await deps.injections.add(input.sessionId, context);
  return { stdout: contextOutput('SessionStart', text) };
}

export async function promptSubmit(
  deps: ContextOpDeps,
  input: { sessionId?: string; transcriptPath?: string; prompt?: string },
): Promise<HookAnswer> {
  const prompt = input.prompt?.trim() ?? '';
  if (!prompt || !shouldRecall({ text: prompt }).recall) return {};
  const blocks = await deps.injections.begin({ sessionId: input.sessionId, transcriptPath: input.transcriptPath, fresh: false });
  const result = await deps.strata.recall({ query: prompt, scopes: deps.scopes });
  const results = result.results.filter((r) => !alreadyInjected(blocks, r.record.text));
  const block = formatContextBlock({ results, maxTokens: PROMPT_RECALL_TOKENS, now: new Date() });
  if (!block) return {};
  await deps.injections.add(input.sessionId, block);
  return { stdout: contextOutput('UserPromptSubmit', block) };
}
