/**
 * One summaries pass: for each agent/session in the L0 log, under that session's lock, repeat
 * "merge the lowest level holding `mergeFanIn` unmerged summaries, else summarise the next closed
 * chunk" until neither applies. Every step writes its summary file and then the index (both
 * atomic), so a failure or crash between steps loses at most the step in flight, and the next run
 * resumes from the index without redoing anything it records.
 */
import { ConfigError, StorageError, StrataError } from '../../errors/index.js';
import { isAbortError } from '../../provider-utils/retry.js';
import type { L0LogV1 } from '../../spec/l0-log.js';
import type { LlmV1 } from '../../spec/llm.js';
import type { SummarySession, SummaryStoreV1 } from '../../spec/summary-store.js';
import type { LlmClientGenerateOptions } from '../llm/index.js';
import { LlmOutputError } from '../llm/index.js';
import { estimateTokens } from '../recall/tokens.js';
import { FileSummaryStore } from './file-store.js';
import { coverage, emptyIndex, nextId, summarisedKeys, unmerged, type SummaryEntry, type SummaryIndex } from './index-file.js';
import { readSessionLogs, type SessionLog } from './l0-sessions.js';
import { resolveSummaryOptions, type SummaryOptions } from './options.js';
import { nextChunk } from './plan.js';
import { chunkPrompt, cleanSummary, mergePrompt, type ContextSummary } from './prompts.js';
import { redactDeep, redactText } from '../write/redact-record.js';

export interface RunSummariesOptions {
  home: string;
  /** Where summaries are kept. Default: files under `home` (`summaries/`). */
  store?: SummaryStoreV1;
  /** The L0 log the sessions are read from. */
  l0: L0LogV1;
  /** Needed unless `dryRun`; the engine's `LlmClient` adds retries and usage accounting. */
  llm?: LlmV1;
  /** Only this agent / this session key (default: every session in the L0 log). */
  agentId?: string;
  sessionKey?: string;
  /** The `summaries` config section; missing values take `DEFAULT_SUMMARY_OPTIONS`. */
  config?: Partial<SummaryOptions>;
  /** Plan only: count what would be summarised and merged, without LLM calls or writes. */
  dryRun?: boolean;
  /** How long to wait for a session held by another run before skipping it. Default 30 s. */
  lockTimeoutMs?: number;
  abortSignal?: AbortSignal;
}

/** Why a session's pass stopped (or did nothing). */
export type SummaryStopReason = 'nothing-old-enough' | 'partial-chunk-waiting' | 'locked' | 'failed';

export interface SessionSummaryReport {
  agentId: string;
  sessionKey: string;
  chunksSummarised: number;
  /** Merges performed, keyed by the level of the summary created (2..maxLevel). */
  merges: Record<number, number>;
  llmCalls: number;
  stoppedBecause: SummaryStopReason;
  /** Eligible messages held back in a partial chunk. */
  waiting: { messages: number; tokens: number };
  error?: { code: string; message: string };
}

export interface SummaryRunReport {
  dryRun: boolean;
  sessionsVisited: number;
  chunksSummarised: number;
  merges: Record<number, number>;
  llmCalls: number;
  /** Sessions where nothing was done, counted by reason. */
  skipped: Partial<Record<SummaryStopReason, number>>;
  /** Sessions that failed (their index is consistent; the next run continues). */
  failed: number;
  sessions: SessionSummaryReport[];
  durationMs: number;
}

/** Context given with each call: the newest covering summaries within this many summaries' worth. */
const CONTEXT_SUMMARIES = 4;

export async function runSummaries(options: RunSummariesOptions): Promise<SummaryRunReport> {
  const started = Date.now();
  const config = resolveSummaryOptions(options.config);
  const dryRun = options.dryRun ?? false;
  const llm = options.llm;
  if (!dryRun && !llm) {
    throw new ConfigError({
      field: 'llm.provider',
      message:
        'Summaries need an LLM: set llm.provider and llm.model in config.json (or STRATA_LLM_PROVIDER / STRATA_LLM_MODEL), or use --dry-run to only plan.',
    });
  }
  const logs = await readSessionLogs({
    log: options.l0,
    abortSignal: options.abortSignal,
    agentId: options.agentId,
    sessionKey: options.sessionKey,
  });
  const report: SummaryRunReport = {
    dryRun,
    sessionsVisited: 0,
    chunksSummarised: 0,
    merges: {},
    llmCalls: 0,
    skipped: {},
    failed: 0,
    sessions: [],
    durationMs: 0,
  };
  for (const log of logs) {
    options.abortSignal?.throwIfAborted();
    const session = await runSession({
      log,
      store: options.store ?? new FileSummaryStore({ home: options.home }),
      llm,
      config,
      dryRun,
      lockTimeoutMs: options.lockTimeoutMs ?? 30_000,
      abortSignal: options.abortSignal,
    });
    report.sessionsVisited++;
    report.sessions.push(session);
    report.chunksSummarised += session.chunksSummarised;
    report.llmCalls += session.llmCalls;
    for (const [level, n] of Object.entries(session.merges)) report.merges[Number(level)] = (report.merges[Number(level)] ?? 0) + n;
    if (session.stoppedBecause === 'failed') report.failed++;
    else if (session.chunksSummarised === 0 && Object.keys(session.merges).length === 0) {
      report.skipped[session.stoppedBecause] = (report.skipped[session.stoppedBecause] ?? 0) + 1;
    }
  }
  report.durationMs = Date.now() - started;
  return report;
}

interface SessionRun {
  log: SessionLog;
  store: SummaryStoreV1;
  llm: LlmV1 | undefined;
  config: SummaryOptions;
  dryRun: boolean;
  lockTimeoutMs: number;
  abortSignal: AbortSignal | undefined;
}

async function runSession(run: SessionRun): Promise<SessionSummaryReport> {
  const { agentId, sessionKey } = run.log;
  const report: SessionSummaryReport = {
    agentId,
    sessionKey,
    chunksSummarised: 0,
    merges: {},
    llmCalls: 0,
    stoppedBecause: 'nothing-old-enough',
    waiting: { messages: 0, tokens: 0 },
  };
  const paths: SummarySession = { agentId, sessionKey };
  try {
    // A dry run only reads, so it takes no lock (and creates no folder).
    if (run.dryRun) await steps(run, paths, report);
    else await run.store.exclusive({ ...paths, timeoutMs: run.lockTimeoutMs }, () => steps(run, paths, report));
  } catch (error) {
    if (isAbortError(error) || run.abortSignal?.aborted) throw error;
    const code = StrataError.isInstance(error) ? error.code : 'UNKNOWN';
    report.stoppedBecause = code === 'STORE_LOCKED' ? 'locked' : 'failed';
    report.error = { code, message: (error as Error).message };
  }
  return report;
}

async function steps(run: SessionRun, paths: SummarySession, report: SessionSummaryReport): Promise<void> {
  const { config } = run;
  // Read inside the lock: a run that waited for another sees that run's work.
  const index = (await run.store.readIndex(paths)) ?? emptyIndex(paths);
  const texts = new Map<string, string>();
  const done = summarisedKeys(index);
  for (;;) {
    run.abortSignal?.throwIfAborted();
    const level = mergeableLevel(index, config);
    if (level !== undefined) {
      const group = unmerged(index, level).slice(0, config.mergeFanIn);
      const groupIds = new Set(group.map((g) => g.id));
      const context = await contextFor({ index, texts, store: run.store, paths, exclude: groupIds, olderThan: group[0]!.from, config });
      const parts = await Promise.all(
        group.map(async (g) => ({ level: g.level, from: g.from, to: g.to, text: await textOf(texts, run.store, paths, g) })),
      );
      const prompt = mergePrompt({ summaries: parts, context, summaryTokens: config.summaryTokens });
      const text = await summarise(run, report, prompt, `summaries.merge-l${level + 1}`);
      const entry = await commit({
        run,
        index,
        paths,
        texts,
        text,
        level: level + 1,
        sourceIds: group.map((g) => g.id),
        from: Math.min(...group.map((g) => g.from)),
        to: Math.max(...group.map((g) => g.to)),
        sourceTokens: group.reduce((n, g) => n + g.tokens, 0),
        messageCount: group.reduce((n, g) => n + g.messageCount, 0),
        mergedFrom: group,
      });
      report.merges[entry.level] = (report.merges[entry.level] ?? 0) + 1;
      continue;
    }
    const decision = nextChunk({
      messages: run.log.messages,
      done,
      boundaryTokens: config.boundaryTokens,
      chunkTokens: config.chunkTokens,
    });
    if (decision.kind === 'wait') {
      report.stoppedBecause = decision.reason;
      report.waiting = { messages: decision.messages, tokens: decision.tokens };
      return;
    }
    const timestamps = decision.messages.map((m) => m.record.timestamp);
    const context = await contextFor({ index, texts, store: run.store, paths, exclude: new Set(), olderThan: Infinity, config });
    const prompt = chunkPrompt({
      messages: decision.messages,
      context,
      summaryTokens: config.summaryTokens,
      maxMessageChars: config.chunkTokens * 4,
    });
    const text = await summarise(run, report, prompt, 'summaries.chunk');
    await commit({
      run,
      index,
      paths,
      texts,
      text,
      level: 1,
      sourceIds: decision.messages.map((m) => m.key),
      from: Math.min(...timestamps),
      to: Math.max(...timestamps),
      sourceTokens: decision.tokens,
      messageCount: decision.messages.length,
      mergedFrom: [],
    });
    for (const m of decision.messages) done.add(m.key);
    report.chunksSummarised++;
  }
}

/** The lowest level below `maxLevel` with enough unmerged summaries to merge. */
function mergeableLevel(index: SummaryIndex, config: SummaryOptions): number | undefined {
  for (let level = 1; level < config.maxLevel; level++) if (unmerged(index, level).length >= config.mergeFanIn) return level;
  return undefined;
}

async function textOf(texts: Map<string, string>, store: SummaryStoreV1, paths: SummarySession, entry: SummaryEntry): Promise<string> {
  const cached = texts.get(entry.id);
  if (cached !== undefined) return cached;
  const text = await store.readText({ ...paths, id: entry.id });
  if (text === undefined)
    throw new StorageError({
      message: `The text of summary ${entry.id} (session ${paths.sessionKey}) is missing from the summary store; the session's summaries must be rebuilt.`,
    });
  texts.set(entry.id, text);
  return text;
}

/** The newest covering summaries older than what is being summarised, oldest first. */
async function contextFor(options: {
  index: SummaryIndex;
  texts: Map<string, string>;
  store: SummaryStoreV1;
  paths: SummarySession;
  exclude: Set<string>;
  olderThan: number;
  config: SummaryOptions;
}): Promise<ContextSummary[]> {
  const budget = options.config.summaryTokens * CONTEXT_SUMMARIES;
  const candidates = coverage(options.index).filter((s) => !options.exclude.has(s.id) && s.from < options.olderThan);
  const picked: ContextSummary[] = [];
  let used = 0;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const s = candidates[i]!;
    if (used + s.tokens > budget && picked.length > 0) break;
    used += s.tokens;
    picked.unshift({ level: s.level, from: s.from, to: s.to, text: await textOf(options.texts, options.store, options.paths, s) });
  }
  return picked;
}

async function summarise(
  run: SessionRun,
  report: SessionSummaryReport,
  prompt: { system: string; user: string },
  purpose: string,
): Promise<string> {
  if (run.dryRun || !run.llm) return '';
  const request: LlmClientGenerateOptions = {
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    maxTokens: run.config.summaryTokens * 2,
    temperature: 0.2,
    abortSignal: run.abortSignal,
    purpose,
  };
  report.llmCalls++;
  const result = await run.llm.doGenerate(request);
  const text = cleanSummary(result.text);
  if (text === '')
    throw new LlmOutputError({
      message: `The LLM returned an empty summary (${purpose}); nothing was recorded and the next run retries.`,
      text: result.text,
    });
  return text;
}

/** The summary text and the index entry (with merge links) in one store commit. */
async function commit(options: {
  run: SessionRun;
  index: SummaryIndex;
  paths: SummarySession;
  texts: Map<string, string>;
  text: string;
  level: number;
  sourceIds: string[];
  from: number;
  to: number;
  sourceTokens: number;
  messageCount: number;
  mergedFrom: SummaryEntry[];
}): Promise<SummaryEntry> {
  const { index, paths } = options;
  const id = nextId(index, options.level);
  const entry: SummaryEntry = {
    id,
    level: options.level,
    file: `${id}.md`,
    sourceIds: options.sourceIds,
    from: options.from,
    to: options.to,
    sourceTokens: options.sourceTokens,
    tokens: estimateTokens(options.text),
    messageCount: options.messageCount,
    mergedInto: null,
    createdAt: new Date().toISOString(),
  };
  const next: SummaryIndex = {
    ...index,
    summaries: [...index.summaries.map((s) => (options.mergedFrom.some((m) => m.id === s.id) ? { ...s, mergedInto: id } : s)), entry],
    updatedAt: entry.createdAt,
  };
  if (!options.run.dryRun) await options.run.store.commit({ ...paths, id, text: redactText(options.text), index: redactDeep(next) });
  // Only after the index is durable does the in-memory state move on.
  index.summaries = next.summaries;
  index.updatedAt = next.updatedAt;
  options.texts.set(id, options.text);
  return entry;
}
