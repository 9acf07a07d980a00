/**
 * One Claude Code hook call: SessionStart and UserPromptSubmit answer with `additionalContext`;
 * PreCompact, Stop and SessionEnd capture the transcript (L0 log and conversation index, within a
 * time budget) and leave the rest to one detached background-worker pass, so the hook returns
 * well inside the host's budget (SessionEnd: 1.5 s by default).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { IngestSummary } from '../../capture/index.js';
import { agentScopes } from '../../core/scope.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { Strata } from '../../strata.js';
import { buildSessionContext } from './bootstrap.js';
import type { HookPayload } from './payload.js';
import type { HookEvent } from './settings.js';

/**
 * Set in the environment of every process Strata starts from a hook (and of the hook itself), so
 * anything Strata runs that could make Claude Code fire hooks again is a no-op there.
 */
export const HOOK_GUARD_ENV = 'STRATA_HOOK_GUARD';
export const DEFAULT_AGENT_ID = 'claude-code';
/** Budget for the UserPromptSubmit recall block (the host caps additionalContext at 10,000 chars). */
const PROMPT_RECALL_TOKENS = 800;
/** Time the capture waits for conversation indexing; the worker pass indexes the rest. */
const CAPTURE_INDEX_BUDGET_MS = 500;

export function isGuarded(env: NodeJS.ProcessEnv): boolean {
  const v = env[HOOK_GUARD_ENV];
  return v !== undefined && v !== '' && v !== '0';
}

/** `--agent`, else `$STRATA_AGENT_ID`, else `claude-code`. */
export function hookAgentId(options: { agent?: string; env: NodeJS.ProcessEnv }): string {
  return options.agent || options.env.STRATA_AGENT_ID?.trim() || DEFAULT_AGENT_ID;
}

/** How to start this CLI again for the background worker (`node [execArgv] <cli> …`). */
export interface CliLauncher {
  execPath: string;
  execArgv: string[];
  cli: string;
}

export interface HookRunOptions {
  event: HookEvent;
  payload: HookPayload;
  agentId: string;
  /** `--home`; default `$STRATA_HOME`, else `~/.strata`. */
  home?: string;
  env: NodeJS.ProcessEnv;
  /** Omit to skip the background distillation (e.g. `--no-distill`). */
  launcher?: CliLauncher;
}

export interface HookOutcome {
  /** Exactly what goes to stdout (hook protocol JSON), or undefined for no output. */
  stdout?: string;
  ingest?: Pick<IngestSummary, 'files' | 'messages' | 'errors'>;
  /**
   * pid of the detached background-worker pass (`strata worker --once`: indexing and embedding,
   * distillation, summaries, and with an LLM on PreCompact / SessionEnd the session's journal entry).
   */
  backgroundPid?: number;
}

function contextOutput(event: 'SessionStart' | 'UserPromptSubmit', additionalContext: string): string | undefined {
  if (!additionalContext) return undefined;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } });
}

async function withEngine<T>(options: HookRunOptions, fn: (strata: Strata, scopes: string[]) => Promise<T>): Promise<T> {
  // Loaded on demand: the guard and bad input must not pay for LanceDB and the embedders.
  const { Strata } = await import('../../strata.js');
  const strata = await Strata.open({ home: options.home, env: options.env });
  try {
    const scopes = agentScopes(options.agentId, strata.config.scopes.agentGrants[options.agentId] ?? []);
    return await fn(strata, scopes);
  } finally {
    await strata.close();
  }
}

/** `<root>/projects/<project>/<session>.jsonl` -> `<root>`; the capture reader discovers from there. */
export function claudeRootOf(transcriptPath: string): string {
  const abs = resolve(transcriptPath);
  const projects = dirname(dirname(abs));
  if (basename(projects) !== 'projects') {
    throw new InvalidArgumentError({
      argument: 'transcript_path',
      message: `transcript_path ${abs} is not <config>/projects/<project>/<session>.jsonl; capture only reads Claude Code's own transcript layout.`,
    });
  }
  return dirname(projects);
}

/** Starts `strata <args>` detached, logging to `<home>/logs`, with the recursion guard set. */
function startBackground(options: { home: string; agentId: string; launcher: CliLauncher; env: NodeJS.ProcessEnv; args: string[] }): number | undefined {
  // Output goes to a log file, not to the host: the hook's stdout must hold only protocol JSON.
  const logDir = join(options.home, 'logs');
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, 'claude-code-hooks.log'), 'a');
  try {
    const { execPath, execArgv, cli } = options.launcher;
    const child = spawn(execPath, [...execArgv, cli, '--home', options.home, '--agent', options.agentId, ...options.args], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...options.env, [HOOK_GUARD_ENV]: '1' },
    });
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** Capture keys Claude Code conversations by project folder (readers/claude-code.ts); summaries follow. */
function summaryKeyOf(transcriptPath: string | undefined): string | undefined {
  return transcriptPath ? `claude-code:${basename(dirname(resolve(transcriptPath)))}` : undefined;
}

async function capture(options: HookRunOptions): Promise<HookOutcome> {
  const path = options.payload.transcriptPath;
  if (!path) throw new InvalidArgumentError({ argument: 'transcript_path', message: `${options.event} hook input has no transcript_path: nothing to capture.` });
  const root = claudeRootOf(path);
  return withEngine(options, async (strata) => {
    // The L0 log and the conversation index in one pipeline; indexing past the budget is left to
    // the worker pass (the index follows the log by its watermark, so nothing is skipped).
    const summary = await strata.ingest({
      sources: [{ kind: 'claude-code', root, only: [resolve(path)] }],
      agentId: options.agentId,
      env: options.env,
      index: { budgetMs: CAPTURE_INDEX_BUDGET_MS },
    });
    const outcome: HookOutcome = { ingest: { files: summary.files, messages: summary.messages, errors: summary.errors } };
    // SessionEnd also starts a pass with nothing new: it catches up on anything an earlier one deferred.
    if (!options.launcher || (summary.messages.new === 0 && options.event !== 'SessionEnd' && summary.index?.done !== false)) return outcome;
    const args = ['worker', '--once'];
    // Before a compaction and at the end of a session the journal gets an entry for what happened
    // (it skips a second flush of the same session within its dedupe window). Only with an LLM.
    if (strata.llm() && options.payload.sessionId && (options.event === 'PreCompact' || options.event === 'SessionEnd')) {
      args.push('--journal-session', options.payload.sessionId, '--transcript', resolve(path));
    }
    outcome.backgroundPid = startBackground({ home: strata.home, agentId: options.agentId, env: options.env, launcher: options.launcher, args });
    return outcome;
  });
}

export async function runClaudeCodeHook(options: HookRunOptions): Promise<HookOutcome> {
  switch (options.event) {
    case 'SessionStart':
      return withEngine(options, async (strata, scopes) => ({
        stdout: contextOutput('SessionStart', await buildSessionContext({ strata, agentId: options.agentId, scopes, sessionKey: summaryKeyOf(options.payload.transcriptPath) })),
      }));
    case 'UserPromptSubmit': {
      const prompt = options.payload.prompt?.trim() ?? '';
      if (!prompt) return {};
      return withEngine(options, async (strata, scopes) => {
        const out = await strata.autoRecall({ query: prompt, scopes, maxTokens: PROMPT_RECALL_TOKENS });
        return { stdout: out.recalled ? contextOutput('UserPromptSubmit', out.block) : undefined };
      });
    }
    case 'PreCompact':
    case 'Stop':
    case 'SessionEnd':
      return capture(options);
  }
}
