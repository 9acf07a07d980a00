/**
 * Capture as one pipeline: every path (transcript ingest, `watch`, live hooks, records a custom
 * agent hands over) appends to the L0 log and then brings the conversation index up to it. The
 * index follows the log by its watermark, so when this process dies between the two steps, or a
 * budget stops the indexing early, the next catch-up (any capture, the background worker,
 * `strata ingest --reindex`) indexes what is missing.
 */
import type { CatchUpResult, ConversationIndexer } from '../core/conversations/index.js';
import type { L0Record } from '../spec/conversation.js';
import type { L0AppendResult, L0LogV1 } from '../spec/l0-log.js';
import { ingest, type IngestOptions, type IngestSummary } from './ingest.js';
import { capture, type CaptureOptions, type CaptureResult } from './live.js';
import { watch, type WatchOptions, type WatchResult } from './watch.js';

/** How much indexing a capture call waits for: all of it (default), a time budget, or none. */
export type IndexMode = { budgetMs?: number } | false;

export interface CapturePipelineOptions {
  home: string;
  l0: L0LogV1;
  indexer: () => Promise<ConversationIndexer>;
  /** Told how many new messages each append wrote (the background worker counts them). */
  onNewMessages?: (count: number) => void;
}

export type PipelineIngestOptions = Omit<IngestOptions, 'home' | 'log'> & { index?: IndexMode };
export type PipelineCaptureOptions = Omit<CaptureOptions, 'home' | 'log'> & { index?: IndexMode };
export type PipelineWatchOptions = Omit<WatchOptions, 'home' | 'log' | 'run'>;

export class CapturePipeline {
  constructor(private readonly options: CapturePipelineOptions) {}

  async ingest(options: PipelineIngestOptions): Promise<IngestSummary & { index?: CatchUpResult }> {
    const { index = {}, ...rest } = options;
    const started = Date.now();
    const summary = await ingest({
      ...rest,
      home: this.options.home,
      log: this.options.l0,
      onRecords: async (records) => {
        this.options.onNewMessages?.(records.length);
        await rest.onRecords?.(records);
        // Index as the log grows: a long ingest never leaves a long tail to index at the end.
        if (index && index.budgetMs === undefined) await this.catchUp(index, started, rest.abortSignal);
      },
    });
    if (rest.dryRun || !index) return summary;
    return { ...summary, index: await this.catchUp(index, started, rest.abortSignal) };
  }

  async capture(options: PipelineCaptureOptions): Promise<CaptureResult & { index?: CatchUpResult }> {
    const { index = {}, ...rest } = options;
    const started = Date.now();
    const result = await capture({ ...rest, home: this.options.home, log: this.options.l0 });
    if (result.new > 0) this.options.onNewMessages?.(result.new);
    if (rest.dryRun || !index) return result;
    return { ...result, index: await this.catchUp(index, started) };
  }

  /** Appends records as they are (already cleaned by the caller) and indexes them. */
  async append(options: {
    records: L0Record[];
    index?: IndexMode;
    abortSignal?: AbortSignal;
  }): Promise<L0AppendResult & { index?: CatchUpResult }> {
    const started = Date.now();
    const result = await this.options.l0.append({ records: options.records, abortSignal: options.abortSignal });
    if (result.written > 0) this.options.onNewMessages?.(result.written);
    const index = options.index ?? {};
    if (!index) return result;
    return { ...result, index: await this.catchUp(index, started, options.abortSignal) };
  }

  watch(options: PipelineWatchOptions): Promise<WatchResult> {
    return watch({ ...options, home: this.options.home, log: this.options.l0, run: (o) => this.ingest(o) });
  }

  private async catchUp(mode: { budgetMs?: number }, started: number, abortSignal?: AbortSignal): Promise<CatchUpResult> {
    const indexer = await this.options.indexer();
    const budgetMs = mode.budgetMs === undefined ? undefined : Math.max(0, mode.budgetMs - (Date.now() - started));
    return indexer.catchUp({ budgetMs, abortSignal });
  }
}
