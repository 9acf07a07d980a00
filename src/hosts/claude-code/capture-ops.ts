/**
 * Capture of one Claude Code session: the new lines of its transcript go to the L0 log and the
 * conversation index (so `conversation_search` finds them), exactly once (byte cursors). Called on
 * Stop, PreCompact and SessionEnd; calling it again for the same file reads only what is new, so
 * the three never double-capture.
 */
import { basename, dirname, resolve } from 'node:path';
import type { IngestSummary } from '../../capture/index.js';
import type { IndexMode } from '../../capture/pipeline.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { Strata } from '../../strata.js';

export interface CaptureResult {
  newMessages: number;
  errors: IngestSummary['errors'];
  /** Every new message is in the conversation index (false: a budget left some to the next catch-up). */
  indexDone: boolean;
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

/**
 * Ingests the transcript's new lines through the engine's capture pipeline: the L0 log, then the
 * conversation index (contract 3). `index: { budgetMs }` bounds the indexing wait; whatever is
 * left is indexed by the next catch-up (any capture, the worker), which follows the log's position.
 */
export async function captureTranscript(options: {
  strata: Strata;
  agentId: string;
  transcriptPath: string;
  env?: NodeJS.ProcessEnv;
  index?: IndexMode;
  abortSignal?: AbortSignal;
}): Promise<CaptureResult> {
  const path = resolve(options.transcriptPath);
  const summary = await options.strata.ingest({
    sources: [{ kind: 'claude-code', root: claudeRootOf(path), only: [path] }],
    agentId: options.agentId,
    env: options.env,
    index: options.index,
    abortSignal: options.abortSignal,
  });
  return { newMessages: summary.messages.new, errors: summary.errors, indexDone: summary.index?.done !== false };
}

/** Embeds conversation vectors waiting in the index (lexical search works before this). */
export async function embedPendingConversations(options: {
  strata: Strata;
  abortSignal?: AbortSignal;
  budgetMs?: number;
}): Promise<number> {
  const out = await options.strata.embedConversations({
    batchSize: 64,
    budgetMs: options.budgetMs ?? 60_000,
    abortSignal: options.abortSignal,
  });
  return out.embedded;
}
