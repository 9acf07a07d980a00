/**
 * `flushJournal`: turns what a session said since its last flush into a day-log entry.
 * Order: per-session lock -> dedupe window -> retry pending flushes -> gather new messages ->
 * generate (with attempts) -> append, or keep the input under pending/ when generation fails.
 */
import { InvalidArgumentError } from '../../errors/index.js';
import { abortErrorFrom } from '../../provider-utils/retry.js';
import type { JournalStoreV1 } from '../../spec/journal-store.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import type { LlmV1 } from '../../spec/llm.js';
import type { LlmClient } from '../llm/llm-client.js';
import { hasContent, renderEntry, type JournalEntry } from './day-log.js';
import { FileJournalStore } from './file-store.js';
import { flushPrompt, generateEntry, renderConversation, selectNew } from './generate.js';
import { lookbackDay, readL0Session } from './l0-session.js';
import { dayOf, resolveJournalOptions, type JournalMessage, type JournalOptions } from './options.js';
import { MAX_PENDING_PER_FLUSH } from './pending.js';
import type { SessionProgress } from './state.js';
import { previousDay } from '../../util/time-zone.js';
import { redactDeep, redactText } from '../write/redact-record.js';

export interface FlushJournalOptions {
  home: string;
  /** Where the journal lives; default the files under `home`. */
  store?: JournalStoreV1;
  llm: LlmV1 | LlmClient;
  sessionId: string;
  /** Recorded in the heading; with the L0 source, also restricts the read to this agent. */
  agentId?: string;
  /**
   * Already-cleaned messages of the session (e.g. from `readTranscriptForJournal` in
   * src/capture/journal-source.ts). Without them the session is read from the L0 capture log.
   */
  messages?: JournalMessage[];
  /** The L0 log, read when `messages` is not given. */
  l0?: L0LogV1;
  config?: Partial<JournalOptions>;
  /** First backoff wait between generation attempts. Default 2000 ms. */
  retryDelayMs?: number;
  now?: () => Date;
  abortSignal?: AbortSignal;
}

export type FlushStatus = 'written' | 'nothing-worth-keeping' | 'skipped' | 'failed';

export interface FlushPendingReport {
  retried: number;
  written: number;
  /** Pending files left after this flush. */
  remaining: number;
}

export interface FlushJournalResult {
  status: FlushStatus;
  sessionId: string;
  source: 'transcript' | 'l0';
  /** Why the flush was skipped, or the final error when it failed. */
  reason?: string;
  /** Day log written (written / nothing-worth-keeping): a file path, or where the store keeps it. */
  path?: string;
  /** Where the input was kept (failed): the pending flush's id in the store (a file path for files). */
  pendingPath?: string;
  /** New messages since the last flush, and how many of them did not fit the budget. */
  newMessages: number;
  omittedMessages: number;
  pending: FlushPendingReport;
}

/** Sessions idle this long are forgotten so the state stays small (a late flush re-reads the L0 lookback). */
const FORGET_SESSION_MS = 90 * 86_400_000;

export async function flushJournal(options: FlushJournalOptions): Promise<FlushJournalResult> {
  const sessionId = options.sessionId?.trim();
  if (!sessionId)
    throw new InvalidArgumentError({
      argument: 'sessionId',
      message: 'flushJournal needs the session id (strata journal flush --session <id>).',
    });
  const config = resolveJournalOptions(options.config);
  const store = options.store ?? new FileJournalStore({ home: options.home });
  const now = options.now ?? (() => new Date());
  const source = options.messages ? 'transcript' : 'l0';
  const agentId = options.agentId ?? null;
  const base = { sessionId, source, newMessages: 0, omittedMessages: 0 } as const;

  // Flushes of one session serialise (the second then sees the dedupe window); others run in
  // parallel. Long timeout: the holder may be waiting on the LLM; a dead holder's lock ends.
  return store.exclusive({ lock: { kind: 'session', sessionId }, timeoutMs: 10 * 60_000 }, async () => {
    const progress = await store.readProgress(sessionId);
    const started = now();
    if (progress) {
      const ago = started.getTime() - Date.parse(progress.lastFlushAt);
      if (ago >= 0 && ago < config.dedupeWindowMs) {
        const pending = { retried: 0, written: 0, remaining: (await store.listPending()).length };
        return {
          ...base,
          status: 'skipped',
          reason: `session ${sessionId} was flushed ${Math.round(ago / 1000)} s ago (within ${config.dedupeWindowMs / 1000} s)`,
          pending,
        };
      }
    }

    const pendingRun = await retryPending({ ...options, store, config });

    const all =
      options.messages ??
      (await readL0Session({
        log: options.l0,
        sessionId,
        agentId: options.agentId,
        abortSignal: options.abortSignal,
        fromDay: progress ? firstUnseenDay(progress, config.timeZone) : lookbackDay(started),
      }));
    const fresh = selectNew(all, progress);
    if (fresh.length === 0) {
      return { ...base, status: 'skipped', reason: `no new messages in session ${sessionId} since the last flush`, pending: pendingRun };
    }
    const conversation = renderConversation({ messages: fresh, maxInputTokens: config.maxInputTokens });
    const prompt = flushPrompt({ sessionId, agentId, conversation: conversation.text });
    const counts = { newMessages: fresh.length, omittedMessages: conversation.omitted };
    const last = fresh[fresh.length - 1]!;
    const nextProgress: SessionProgress = {
      agentId,
      lastFlushAt: started.toISOString(),
      lastMessageId: last.id,
      lastMessageTimestamp: last.timestamp,
      count: (progress?.count ?? 0) + fresh.length,
    };

    const forgetBefore = new Date(started.getTime() - FORGET_SESSION_MS).toISOString();
    const day = dayOf(started, config.timeZone);
    let entry: JournalEntry;
    try {
      entry = await generateEntry({
        llm: options.llm,
        prompt,
        attempts: config.attempts,
        retryDelayMs: options.retryDelayMs ?? 2000,
        abortSignal: options.abortSignal,
      });
    } catch (error) {
      if (options.abortSignal?.aborted) throw abortErrorFrom(options.abortSignal);
      const message = (error as Error).message;
      // The input is kept for a retry and the session's progress moves on: nothing is lost.
      const { pendingId } = await store.commitFlush({
        sessionId,
        progress: redactDeep(nextProgress),
        forgetBefore,
        pending: redactDeep({
          version: 1,
          sessionId,
          agentId,
          flushedAt: started.toISOString(),
          source,
          messages: conversation.included,
          prompt,
          failures: config.attempts,
          lastError: message,
        }),
      });
      return {
        ...base,
        ...counts,
        status: 'failed',
        pendingPath: pendingId,
        pending: { ...pendingRun, remaining: pendingRun.remaining + 1 },
        reason: `${message} The input is kept in ${pendingId ?? 'the pending flushes'} and is retried by the next flush.`,
      };
    }
    const text = redactText(renderEntry({ entry, at: started, sessionId, agentId, messages: conversation.included }));
    // The entry and the session's progress are recorded together (one transaction on a shared store);
    // when that fails, the progress has not moved and the next flush sends the same messages again.
    await store.commitFlush({ sessionId, progress: redactDeep(nextProgress), forgetBefore, entry: { day, text } });
    return {
      ...base,
      ...counts,
      status: entry.worthKeeping && hasContent(entry) ? 'written' : 'nothing-worth-keeping',
      path: store.dayLocation(day),
      pending: pendingRun,
    };
  });
}

/** L0 files are named by recording day, never before the message's own day: nothing new is earlier. */
function firstUnseenDay(progress: SessionProgress, timeZone?: string): string {
  const flushed = Date.parse(progress.lastFlushAt);
  const last = progress.lastMessageTimestamp > 0 ? progress.lastMessageTimestamp : flushed;
  // A day early: `fromDay` is compared with UTC recording times, the day is local.
  return previousDay(dayOf(new Date(Math.min(last, flushed)), timeZone));
}

async function retryPending(options: FlushJournalOptions & { store: JournalStoreV1; config: JournalOptions }): Promise<FlushPendingReport> {
  const { store } = options;
  const ids = await store.listPending();
  let retried = 0;
  let written = 0;
  for (const id of ids.slice(0, MAX_PENDING_PER_FLUSH)) {
    if (options.abortSignal?.aborted) throw abortErrorFrom(options.abortSignal);
    const outcome = await store.withPending(id, async (pending) => {
      retried++;
      try {
        const entry = await generateEntry({
          llm: options.llm,
          prompt: pending.prompt,
          attempts: options.config.attempts,
          retryDelayMs: options.retryDelayMs ?? 2000,
          abortSignal: options.abortSignal,
        });
        const at = new Date(pending.flushedAt);
        const text = renderEntry({ entry, at, sessionId: pending.sessionId, agentId: pending.agentId, messages: pending.messages });
        return { ok: true, day: dayOf(at, options.config.timeZone), text: redactText(text) };
      } catch (error) {
        if (options.abortSignal?.aborted) throw abortErrorFrom(options.abortSignal);
        return { ok: false, error: (error as Error).message };
      }
    });
    if (outcome === 'done') written++;
  }
  return { retried, written, remaining: (await store.listPending()).length };
}
