/**
 * Builds the one background worker of a host process from a Strata instance's operations:
 * conversation catch-up and embedding (bounded passes), the distill scheduler with the organiser,
 * the summaries worker (with an LLM) and journal flushes (with an LLM).
 */
import type { AutoOrganizeResult } from '../core/layers/index.js';
import { BackgroundWorker, type WorkerEvent } from '../core/worker/background-worker.js';
import type { Strata } from '../strata.js';

export interface CreateWorkerOptions {
  /** Distillation, the organiser and summaries (default true). */
  distill?: boolean;
  /** Summaries (default true, when distilling and an LLM is configured). */
  summaries?: boolean;
  /** Conversation index catch-up and embedding (default true). */
  conversations?: boolean;
  onEvent?: (event: WorkerEvent) => void;
  onOrganize?: (result: AutoOrganizeResult) => void;
}

/** Longest single pass of the conversation task; the rest follows on the next one. */
const CONVERSATION_PASS_MS = 30_000;

export function buildWorker(strata: Strata, options: CreateWorkerOptions, onStop: (worker: BackgroundWorker) => void): BackgroundWorker {
  const stop = new AbortController();
  const emit = (e: WorkerEvent) => options.onEvent?.(e);
  const onOrganize = options.onOrganize ?? (() => undefined);
  const distillOn = options.distill ?? true;
  const worker: BackgroundWorker = new BackgroundWorker({
    conversations:
      options.conversations === false
        ? undefined
        : {
            catchUp: (signal) => strata.indexConversations({ abortSignal: signal, budgetMs: CONVERSATION_PASS_MS }),
            embed: async (signal) => {
              const embedded = await strata.embedConversations({ abortSignal: signal, budgetMs: CONVERSATION_PASS_MS });
              await strata.optimizeConversations(); // only when enough rows wait for the search index
              return embedded;
            },
          },
    distill: distillOn
      ? {
          scheduler: strata.createDistillScheduler({
            onReport: (report) => emit({ task: 'distill', report }),
            onError: (error) => emit({ task: 'distill', error }),
            onOrganize,
            organizeSignal: stop.signal,
          }),
          runOnce: async () => {
            const report = await strata.distill({ lockTimeoutMs: 0 });
            if (!stop.signal.aborted) await strata.organizeIfDue({ report, onResult: onOrganize, abortSignal: stop.signal });
            return report;
          },
        }
      : undefined,
    summaries:
      options.summaries === false || !distillOn
        ? undefined
        : strata.createSummaryWorker({
            onReport: (report) => emit({ task: 'summaries', report }),
            onError: (error) => emit({ task: 'summaries', error }),
          }),
    journal: strata.llm() ? { flush: (request, signal) => strata.flushJournal({ ...request, abortSignal: signal }) } : undefined,
    onEvent: emit,
    onStop: () => {
      stop.abort(); // an organiser run in progress restores its scenes instead of running on
      onStop(worker);
    },
  });
  return worker;
}
