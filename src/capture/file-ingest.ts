import { stat } from 'node:fs/promises';
import { ulid } from 'ulid';
import type { ConversationMessage, L0Record, LineSkipReason, TranscriptFile, TranscriptReader } from '../spec/conversation.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import { l0RecordOf } from './l0-record.js';
import type { Cleaner } from './clean/index.js';
import { cursorKey, type CursorStore, type FileCursor, type FileIdentity } from './cursor-store.js';
import { headHash, isNotFound } from '../util/fs-util.js';
import { lastLineBoundary, readCompleteLines } from './line-reader.js';
import { readZstdLines } from './zstd-lines.js';

/** Bytes hashed to recognise a rewritten file. */
export const HEAD_BYTES = 1024;
/** Records per batch (L0 append + cursor commit): bounds memory and crash re-work, amortises fsyncs. */
const APPEND_CHUNK = 8_000;

export type FileOutcome = 'read' | 'unchanged' | 'vanished' | 'from-now' | 'budget';
export type RescanReason = 'truncated' | 'rotated' | 'rewritten';

export interface FileResult {
  outcome: FileOutcome;
  rescan?: RescanReason;
  recoveredBatch?: boolean;
  bytesRead: number;
  lines: number;
  messages: number;
  written: number;
  duplicates: number;
  skippedLines: Partial<Record<LineSkipReason, number>>;
}

export interface FileIngestContext {
  store: CursorStore;
  log: L0LogV1;
  cleaner: Cleaner;
  reader: TranscriptReader;
  cursors: Record<string, FileCursor>;
  fromNow: boolean;
  dryRun: boolean;
  maxBytes: number;
  maxLineBytes?: number;
  now: () => Date;
  abortSignal?: AbortSignal;
  onRecords?: (records: L0Record[]) => Promise<void> | void;
  onBytes?: (bytes: number) => void;
}

function emptyResult(outcome: FileOutcome): FileResult {
  return { outcome, bytesRead: 0, lines: 0, messages: 0, written: 0, duplicates: 0, skippedLines: {} };
}

async function identityOf(path: string): Promise<FileIdentity> {
  const st = await stat(path);
  const head = await headHash(path, HEAD_BYTES);
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, headHash: head.hash, headLen: head.length };
}

type UnfinishedTail = NonNullable<FileCursor['tail']>;

/** Bytes of the file the cursor has seen: its unfinished last line counts as seen up to where it was read. */
function seenBytes(cursor: FileCursor): number {
  return cursor.tail?.scannedTo ?? cursor.committed;
}

/**
 * Where to resume: the committed offset (with the unfinished line read last time, if the file did
 * not shrink into it), or 0 when the file was truncated, rotated or rewritten.
 */
async function resumePoint(
  path: string,
  cursor: FileCursor,
  now: FileIdentity,
): Promise<{ start: number; rescan?: RescanReason; tail?: UnfinishedTail }> {
  if (cursor.dev !== now.dev || cursor.ino !== now.ino) return { start: 0, rescan: 'rotated' };
  if (now.size < cursor.committed) return { start: 0, rescan: 'truncated' };
  const head = cursor.headLen === now.headLen ? now : await headHash(path, cursor.headLen).then((h) => ({ headHash: h.hash }));
  if (head.headHash !== cursor.headHash) return { start: 0, rescan: 'rewritten' };
  // Same size but touched: an in-place rewrite of equal length. Re-scan; dedupe keeps it exact.
  if (now.size === seenBytes(cursor) && now.mtimeMs !== cursor.mtimeMs && cursor.pending === null) return { start: 0, rescan: 'rewritten' };
  const tail = cursor.tail && cursor.pending === null && now.size >= cursor.tail.scannedTo ? cursor.tail : undefined;
  return { start: cursor.committed, ...(tail ? { tail } : {}) };
}

export async function ingestFile(ctx: FileIngestContext, file: TranscriptFile): Promise<FileResult> {
  const key = cursorKey(file.host, file.path);
  const cursor = ctx.cursors[key];
  let identity: FileIdentity;
  try {
    // Fast path for the common case (nothing changed): one stat, no read.
    const st = await stat(file.path);
    if (
      cursor &&
      cursor.pending === null &&
      st.ino === cursor.ino &&
      st.dev === cursor.dev &&
      st.size === seenBytes(cursor) &&
      st.mtimeMs === cursor.mtimeMs
    ) {
      return emptyResult('unchanged');
    }
    identity = await identityOf(file.path);
  } catch (error) {
    if (isNotFound(error)) return emptyResult('vanished');
    throw error;
  }
  const meta = { host: file.host, path: file.path, agentId: file.agentId, sessionKey: file.sessionKey, sessionId: file.sessionId };
  if (!cursor && ctx.fromNow) {
    const start = await lastLineBoundary(file.path, identity.size);
    if (!ctx.dryRun) await ctx.store.put({ key, cursor: { ...meta, ...identity, committed: start } });
    return emptyResult('from-now');
  }
  const compressed = file.compressed === 'zstd';
  // A compressed archive has no resumable offsets: it is read whole whenever it changed.
  const { start, rescan, tail } = cursor && !compressed ? await resumePoint(file.path, cursor, identity) : { start: 0, tail: undefined };
  const recoveredBatch = cursor?.pending != null;
  if ((tail?.scannedTo ?? start) >= identity.size && !rescan && !recoveredBatch) return emptyResult('unchanged');
  if (ctx.maxBytes <= 0) return emptyResult('budget');

  const result: FileResult = { ...emptyResult('read'), ...(rescan ? { rescan } : {}), ...(recoveredBatch ? { recoveredBatch } : {}) };
  const planned = Math.min(identity.size, start + ctx.maxBytes);
  let batchId = ulid();
  if (!ctx.dryRun) await ctx.store.stage({ key, cursor: { ...meta, ...identity, committed: start }, pendingOffset: planned, batchId });

  const parser = ctx.reader.createParser(file);
  let buffer: L0Record[] = [];
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const appended = await ctx.log.append({ records: buffer, dryRun: ctx.dryRun });
    result.written += appended.written;
    result.duplicates += appended.duplicates;
    if (appended.records.length > 0 && ctx.onRecords && !ctx.dryRun) await ctx.onRecords(appended.records);
    buffer = [];
  };
  const take = (messages: ConversationMessage[]): void => {
    const recordedAt = ctx.now();
    for (const m of messages) {
      result.messages += 1;
      const cleaned = ctx.cleaner.clean(m);
      if (!cleaned.keep) continue;
      buffer.push(l0RecordOf(m, cleaned.text, recordedAt));
    }
  };

  let end = start;
  // The line the file ends inside of: remembered so it is not read again while it has no end.
  let unfinished: UnfinishedTail | undefined;
  try {
    const source = compressed
      ? readZstdLines({ path: file.path, maxLineBytes: ctx.maxLineBytes })
      : readCompleteLines({
          path: file.path,
          start,
          maxBytes: ctx.maxBytes,
          maxLineBytes: ctx.maxLineBytes,
          // An oversized line is read on from where the last run stopped, not again from its start.
          ...(tail?.oversized ? { oversizedTail: { scannedTo: tail.scannedTo } } : {}),
        });
    for await (const chunk of source) {
      if (chunk.unfinished && !compressed) unfinished = { scannedTo: chunk.unfinished.scannedTo, oversized: chunk.unfinished.oversized };
      for (const line of chunk.lines) {
        result.lines += 1;
        if (line.text === undefined) {
          const reason = line.skipped ?? 'malformed';
          result.skippedLines[reason] = (result.skippedLines[reason] ?? 0) + 1;
          continue;
        }
        const parsed = parser.line(line.text);
        if (parsed.skipped) result.skippedLines[parsed.skipped] = (result.skippedLines[parsed.skipped] ?? 0) + 1;
        take(parsed.messages);
      }
      if (compressed) {
        if (buffer.length >= APPEND_CHUNK) await flush();
        continue;
      }
      ctx.onBytes?.(chunk.end - end);
      end = chunk.end;
      if (buffer.length >= APPEND_CHUNK || ctx.abortSignal?.aborted) {
        // Batch boundary: flush what the parser holds, write to L0, commit and stage the next
        // batch, so a crash re-reads at most one batch.
        take(parser.end());
        await flush();
        if (!ctx.dryRun) {
          const next = ulid();
          await ctx.store.advance({ key, batchId, offset: end, nextBatchId: next, nextPendingOffset: planned });
          batchId = next;
        }
      }
      if (ctx.abortSignal?.aborted) break;
    }
  } catch (error) {
    if (!isNotFound(error)) throw error;
    // Deleted mid-run: what was read is still recorded; the cursor stays put for the next run.
    result.outcome = 'vanished';
  }
  take(parser.end());
  await flush();
  if (compressed && result.outcome === 'read') end = identity.size;
  result.bytesRead = end - start;
  if (!ctx.dryRun && result.outcome === 'read') {
    const after = await identityOf(file.path).catch(() => undefined);
    // Keep the identity the batch was read under unless the file is exactly what was read.
    const finalIdentity = after && after.size === (unfinished?.scannedTo ?? end) && after.ino === identity.ino ? after : identity;
    await ctx.store.commit({ key, batchId, offset: end, identity: finalIdentity, ...(unfinished ? { tail: unfinished } : {}) });
  }
  return result;
}
