import { resolve } from 'node:path';
import type { L0Record, LineSkipReason, TranscriptFile } from '../spec/conversation.js';
import type { L0LogV1 } from '../spec/l0-log.js';
import { createCleaner, type CleanOptions, type CleanStats } from './clean/index.js';
import { CursorStore } from './cursor-store.js';
import { ingestFile, type FileResult, type RescanReason } from './file-ingest.js';
import { assertAgentId, isValidAgentId } from '../core/scope.js';
import { READERS, SOURCE_KINDS, type SourceKind } from './readers/index.js';
import { discoverOpenClawSqlite, ingestOpenClawSqlite, type SqliteResult } from './sqlite/openclaw-sqlite.js';

/** Agent ids never ingested (Strata's own distiller), so Strata does not learn from itself. */
export const DEFAULT_SKIP_AGENT_IDS = ['strata-distiller'];
export const DEFAULT_MAX_BYTES_PER_RUN = 512 * 1024 * 1024;

export interface IngestSourceSpec {
  kind: SourceKind;
  /** Root folder (state dir / config dir / codex home / JSONL folder or file). Default from env. */
  root?: string;
  /** Only these transcript files (e.g. a hook's `transcript_path`); others under the root are left alone. */
  only?: string[];
}

export interface IngestProgress {
  file: string;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
}

export interface IngestOptions {
  /** Strata home: cursors go to `<home>/capture`. */
  home: string;
  /** Where messages go (hosts use `Strata.ingest`, which also feeds the conversation index). */
  log: L0LogV1;
  /** Default: openclaw, claude-code and codex at their default locations. `jsonl` needs a root. */
  sources?: Array<SourceKind | 'all' | IngestSourceSpec>;
  /** OpenClaw: only this agent. Other hosts: the agent id recorded (default the host name). */
  agentId?: string;
  /** New cursors start at end of file: only what is written from now on is ingested. */
  fromNow?: boolean;
  /** Include OpenClaw reset/deleted/backup archives and Codex archived sessions. */
  includeArchives?: boolean;
  /** Include Claude Code subagent transcripts. */
  includeSubagents?: boolean;
  /** Read and clean, count what would be written; write nothing (neither L0 nor cursors). */
  dryRun?: boolean;
  /** Total bytes read in this run (soft: a started line is finished). The rest waits for the next run. */
  maxBytesPerRun?: number;
  /** Lines longer than this are skipped and counted. Default 8 MiB. */
  maxLineBytes?: number;
  skipAgentIds?: string[];
  /** Also read SQLite-era OpenClaw stores (`agents/<id>/agent/openclaw-agent.sqlite`). Default true. */
  sqlite?: boolean;
  /** SQLite rows read per run (the byte budget does not apply to them). Default 1,000,000. */
  maxEventsPerRun?: number;
  clean?: CleanOptions;
  env?: Record<string, string | undefined>;
  onProgress?: (progress: IngestProgress) => void;
  /** Called with the records each L0 append wrote (e.g. to feed the conversation index). */
  onRecords?: (records: L0Record[]) => Promise<void> | void;
  abortSignal?: AbortSignal;
}

export interface IngestSummary {
  dryRun: boolean;
  files: {
    found: number;
    read: number;
    unchanged: number;
    vanished: number;
    startedFromNow: number;
    skippedAgent: number;
    /** Left for the next run because the byte budget was spent. */
    deferred: number;
    rescanned: Partial<Record<RescanReason, number>>;
    /** Batches a crashed run had staged, processed again. */
    recoveredBatches: number;
    /** SQLite-era OpenClaw stores among `found`. */
    sqliteStores: number;
  };
  bytesRead: number;
  lines: number;
  skippedLines: Partial<Record<LineSkipReason, number>>;
  messages: { parsed: number; new: number; duplicates: number };
  noise: CleanStats['dropped'];
  stripped: CleanStats['stripped'];
  redactions: { total: number; byKind: Record<string, number> };
  errors: Array<{ path: string; message: string }>;
  aborted: boolean;
}

function normaliseSources(sources: IngestOptions['sources']): IngestSourceSpec[] {
  const list = sources && sources.length > 0 ? sources : ['all' as const];
  const out: IngestSourceSpec[] = [];
  for (const s of list) {
    if (s === 'all') out.push(...SOURCE_KINDS.filter((k) => k !== 'jsonl').map((kind) => ({ kind })));
    else out.push(typeof s === 'string' ? { kind: s } : s);
  }
  return out;
}

/** Lists the transcript files the given sources hold (after archive and agent filters). */
export async function discoverTranscripts(
  options: Pick<IngestOptions, 'sources' | 'agentId' | 'includeArchives' | 'includeSubagents' | 'env'>,
): Promise<TranscriptFile[]> {
  const files: TranscriptFile[] = [];
  for (const spec of normaliseSources(options.sources)) {
    const found = await READERS[spec.kind].discover({
      root: spec.root,
      agentId: options.agentId,
      includeArchives: options.includeArchives,
      includeSubagents: options.includeSubagents,
      env: options.env ?? process.env,
    });
    const only = spec.only ? new Set(spec.only.map((p) => resolve(p))) : undefined;
    files.push(...(only ? found.filter((f) => only.has(resolve(f.path))) : found));
  }
  return files;
}

export async function ingest(options: IngestOptions): Promise<IngestSummary> {
  if (options.agentId !== undefined) assertAgentId(options.agentId);
  const store = new CursorStore({ home: options.home });
  const { log } = options;
  const cleaner = createCleaner(options.clean);
  const skip = new Set(options.skipAgentIds ?? DEFAULT_SKIP_AGENT_IDS);
  const summary: IngestSummary = {
    dryRun: options.dryRun ?? false,
    files: {
      found: 0,
      read: 0,
      unchanged: 0,
      vanished: 0,
      startedFromNow: 0,
      skippedAgent: 0,
      deferred: 0,
      rescanned: {},
      recoveredBatches: 0,
      sqliteStores: 0,
    },
    bytesRead: 0,
    lines: 0,
    skippedLines: {},
    messages: { parsed: 0, new: 0, duplicates: 0 },
    noise: cleaner.stats.dropped,
    stripped: cleaner.stats.stripped,
    redactions: { total: 0, byKind: cleaner.stats.redactions },
    errors: [],
    aborted: false,
  };
  const files = await discoverTranscripts(options);
  summary.files.found = files.length;
  const cursors = await store.load();
  let budget = options.maxBytesPerRun ?? DEFAULT_MAX_BYTES_PER_RUN;
  let bytesDone = 0;
  for (const [index, file] of files.entries()) {
    if (options.abortSignal?.aborted) {
      summary.aborted = true;
      break;
    }
    if (skip.has(file.agentId)) {
      summary.files.skippedAgent += 1;
      continue;
    }
    if (!isValidAgentId(file.agentId)) {
      summary.errors.push({ path: file.path, message: invalidAgentMessage(file.agentId) });
      continue;
    }
    options.onProgress?.({ file: file.path, filesDone: index, filesTotal: files.length, bytesDone });
    let result: FileResult;
    try {
      result = await ingestFile(
        {
          store,
          log,
          cleaner,
          reader: READERS[file.host as SourceKind],
          cursors,
          fromNow: options.fromNow ?? false,
          dryRun: summary.dryRun,
          maxBytes: budget,
          maxLineBytes: options.maxLineBytes,
          now: () => new Date(),
          abortSignal: options.abortSignal,
          onRecords: options.onRecords,
          onBytes: (n) => {
            // Called per ~1 MB read: enough for a progress bar on one large file.
            bytesDone += n;
            options.onProgress?.({ file: file.path, filesDone: index, filesTotal: files.length, bytesDone });
          },
        },
        file,
      );
    } catch (error) {
      summary.errors.push({ path: file.path, message: (error as Error).message });
      continue;
    }
    budget -= result.bytesRead;
    addResult(summary, result);
  }
  if (options.sqlite ?? true) await ingestSqliteStores(options, { log, cleaner, skip, summary });
  if (options.abortSignal?.aborted) summary.aborted = true;
  options.onProgress?.({ file: '', filesDone: files.length, filesTotal: files.length, bytesDone });
  summary.redactions.total = Object.values(cleaner.stats.redactions).reduce((a, b) => a + b, 0);
  return summary;
}

/** Files of an agent whose id cannot form a scope are not read (never filed under another scope). */
const invalidAgentMessage = (agentId: string): string =>
  `skipped: agent id ${JSON.stringify(agentId)} cannot form a scope (letters, digits and . _ @ - / : only, starting with a letter or digit); rename the agent's folder to capture it.`;

function addResult(summary: IngestSummary, r: FileResult): void {
  const f = summary.files;
  if (r.outcome === 'read') f.read += 1;
  else if (r.outcome === 'unchanged') f.unchanged += 1;
  else if (r.outcome === 'vanished') f.vanished += 1;
  else if (r.outcome === 'from-now') f.startedFromNow += 1;
  else if (r.outcome === 'budget') f.deferred += 1;
  if (r.rescan) f.rescanned[r.rescan] = (f.rescanned[r.rescan] ?? 0) + 1;
  if (r.recoveredBatch) f.recoveredBatches += 1;
  summary.bytesRead += r.bytesRead;
  summary.lines += r.lines;
  summary.messages.parsed += r.messages;
  summary.messages.new += r.written;
  summary.messages.duplicates += r.duplicates;
  for (const [k, v] of Object.entries(r.skippedLines)) {
    summary.skippedLines[k as LineSkipReason] = (summary.skippedLines[k as LineSkipReason] ?? 0) + v;
  }
}

async function ingestSqliteStores(
  options: IngestOptions,
  ctx: { log: L0LogV1; cleaner: ReturnType<typeof createCleaner>; skip: Set<string>; summary: IngestSummary },
): Promise<void> {
  const { summary } = ctx;
  for (const spec of normaliseSources(options.sources).filter((s) => s.kind === 'openclaw')) {
    const only = spec.only ? new Set(spec.only.map((p) => resolve(p))) : undefined;
    const stores = (await discoverOpenClawSqlite({ root: spec.root, agentId: options.agentId, env: options.env ?? process.env })).filter(
      (store) => !only || only.has(resolve(store.path)),
    );
    for (const store of stores) {
      if (options.abortSignal?.aborted) return;
      summary.files.found += 1;
      summary.files.sqliteStores += 1;
      if (ctx.skip.has(store.agentId)) {
        summary.files.skippedAgent += 1;
        continue;
      }
      if (!isValidAgentId(store.agentId)) {
        summary.errors.push({ path: store.path, message: invalidAgentMessage(store.agentId) });
        continue;
      }
      let r: SqliteResult;
      try {
        r = await ingestOpenClawSqlite(
          {
            home: options.home,
            log: ctx.log,
            cleaner: ctx.cleaner,
            fromNow: options.fromNow ?? false,
            dryRun: summary.dryRun,
            maxEvents: options.maxEventsPerRun ?? 1_000_000,
            onRecords: options.onRecords,
          },
          store,
        );
      } catch (error) {
        summary.errors.push({ path: store.path, message: (error as Error).message });
        continue;
      }
      if (r.outcome === 'read') summary.files.read += 1;
      else if (r.outcome === 'unchanged') summary.files.unchanged += 1;
      else if (r.outcome === 'vanished') summary.files.vanished += 1;
      else if (r.outcome === 'from-now') summary.files.startedFromNow += 1;
      if (r.recoveredBatch) summary.files.recoveredBatches += 1;
      summary.lines += r.events;
      if (r.malformed > 0) summary.skippedLines.malformed = (summary.skippedLines.malformed ?? 0) + r.malformed;
      summary.messages.parsed += r.messages;
      summary.messages.new += r.written;
      summary.messages.duplicates += r.duplicates;
    }
  }
}
