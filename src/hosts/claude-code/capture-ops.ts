/**
 * Capture of one Claude Code session: the new lines of its transcript go to the L0 log and the
 * conversation index (so `conversation_search` finds them), exactly once (byte cursors). Called on
 * Stop, PreCompact and SessionEnd; calling it again for the same file reads only what is new, so
 * the three never double-capture.
 */
import { basename, dirname, resolve } from 'node:path';
import { ingest, type IngestSummary } from '../../capture/index.js';
import { InvalidArgumentError } from '../../errors/index.js';
import type { Strata } from '../../strata.js';

export interface CaptureResult {
  newMessages: number;
  errors: IngestSummary['errors'];
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
 * Ingests the transcript's new lines and indexes them for conversation search.
 * TODO(l0): becomes `strata.ingest(...)` once capture indexes through Strata (contract 3).
 */
export async function captureTranscript(options: { strata: Strata; agentId: string; transcriptPath: string; env?: NodeJS.ProcessEnv; abortSignal?: AbortSignal }): Promise<CaptureResult> {
  const { strata } = options;
  const path = resolve(options.transcriptPath);
  const summary = await ingest({
    home: strata.home,
    sources: [{ kind: 'claude-code', root: claudeRootOf(path), only: [path] }],
    agentId: options.agentId,
    env: options.env,
    abortSignal: options.abortSignal,
    onRecords: async (records) => {
      await (await strata.conversationIndex()).add({ records, abortSignal: options.abortSignal });
    },
  });
  return { newMessages: summary.messages.new, errors: summary.errors };
}

/** Embeds conversation vectors waiting in the index (lexical search works before this). */
export async function embedPendingConversations(options: { strata: Strata; abortSignal?: AbortSignal; budgetMs?: number }): Promise<number> {
  const index = await options.strata.conversationIndex();
  const deadline = Date.now() + (options.budgetMs ?? 60_000);
  let embedded = 0;
  for (;;) {
    if (options.abortSignal?.aborted) return embedded;
    const out = await index.embedPending({ batchSize: 64, abortSignal: options.abortSignal });
    embedded += out.embedded;
    if (out.embedded === 0 || out.remaining === 0 || Date.now() >= deadline) return embedded;
  }
}
