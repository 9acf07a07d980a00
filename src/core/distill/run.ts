import { StrataError } from '../../errors/index.js';
import type { L0Record } from '../../spec/conversation.js';
import type { DistillProgressV1 } from '../../spec/distill-progress.js';
import type { LlmUsage, LlmV1 } from '../../spec/llm.js';
import type { EngineContext } from '../engine/context.js';
import { HistoryLog } from '../history/history-log.js';
import type { LlmClient } from '../llm/llm-client.js';
import { LlmOutputError } from '../llm/llm-output-error.js';
import { costOf } from '../llm/usage-log.js';
import { createAdmissionGate, type AdmissionReason } from './admission.js';
import { applyDecisions, type AppliedDecision } from './apply.js';
import { BudgetTracker, type DistillBudget } from './budget.js';
import { FileDistillProgress } from './file-progress.js';
import { evidenceFor } from './grounding.js';
import { estimateExtractionTokens, extractByRules, extractWithLlm, statedAtOf, type Candidate } from './extract.js';
import { DistillCursor, type L0Message } from './l0-source.js';
import { chunkMessages, packChunks } from './prompt.js';
import { DECISION_KINDS, estimateReconcileTokens, reconcile, type DecisionKind } from './reconcile.js';
import { loadTokenizer } from './tokens.js';
import { assertAgentId, isValidAgentId } from '../scope.js';

/**
 * One distillation run over the L0 log: group undistilled messages by (agent, session), chunk by
 * tokens, extract candidates (LLM or rules), admit, reconcile, store, log history, and only then
 * mark the chunk's messages done. Runs hold the distill progress store's lock (a lock file under
 * the home, or a database lock beside a shared L0 log), so two processes or machines never
 * distill the same messages. A failing LLM or store stops the affected chunk before anything is
 * written for it; its messages stay pending for the next run.
 */
export interface DistillCaps {
  /** Admitted memories per run (all agents). Default 50. */
  maxMemoriesPerRun?: number;
  /** Admitted memories per agent per run. Default 20. */
  maxMemoriesPerAgent?: number;
  /** Messages read per run. Default 2000. */
  maxMessagesPerRun?: number;
  /** Rule-based capture: candidates per user message. Default 3. */
  maxPerTurn?: number;
}

export interface DistillOptions {
  ctx: EngineContext;
  home: string;
  /** Omitted: rule-based capture (offline default). */
  llm?: LlmV1 | LlmClient;
  agentId?: string;
  dryRun?: boolean;
  budget?: DistillBudget;
  caps?: DistillCaps;
  /** Prompt tokens per extraction chunk. Default 3000. */
  chunkTokens?: number;
  /** Admission confidence threshold. Default 0.5. */
  minConfidence?: number;
  /** Scope of rule-captured memories. Default 'agent'. */
  ruleScope?: 'agent' | 'global';
  history?: HistoryLog;
  /** Where the cursor, budget window and lock live. Default: files under `home` (`distill/`). */
  progress?: DistillProgressV1;
  /** How long to wait for another run's lock (default 0: fail fast with STORE_LOCKED). */
  lockTimeoutMs?: number;
  /** A distill lock not refreshed for this long (its holder was killed) is taken over. Default 10 s. */
  lockStaleMs?: number;
  now?: () => Date;
  abortSignal?: AbortSignal;
}

export interface DistillError {
  stage: 'extract' | 'reconcile' | 'store';
  agentId: string;
  /** The sessions of the failed batch, comma-separated. */
  sessionKey: string;
  code: string;
  message: string;
}

export interface DistillReport {
  mode: 'llm' | 'rules';
  dryRun: boolean;
  messages: { read: number; distilled: number; pending: number };
  chunks: { processed: number; failed: number; deferred: number };
  candidates: number;
  admitted: number;
  rejected: { total: number; byReason: Partial<Record<AdmissionReason, number>> };
  decisions: Record<DecisionKind, number>;
  llmCalls: number;
  tokens: { input: number; output: number; total: number };
  /** USD; null when the model has no known price (or no LLM was used). */
  cost: number | null;
  budget: { exhausted: boolean; limit?: string; resumeAt?: string };
  errors: DistillError[];
  changes: AppliedDecision[];
}

/** Roles distillation reads: both paths read summaries; without an LLM, assistants only for lessons. */
const DISTILLED_ROLES = new Set(['user', 'assistant', 'summary']);

function emptyReport(mode: 'llm' | 'rules', dryRun: boolean): DistillReport {
  return {
    mode,
    dryRun,
    messages: { read: 0, distilled: 0, pending: 0 },
    chunks: { processed: 0, failed: 0, deferred: 0 },
    candidates: 0,
    admitted: 0,
    rejected: { total: 0, byReason: {} },
    decisions: Object.fromEntries(DECISION_KINDS.map((k) => [k, 0])) as Record<DecisionKind, number>,
    llmCalls: 0,
    tokens: { input: 0, output: 0, total: 0 },
    cost: null,
    budget: { exhausted: false },
    errors: [],
    changes: [],
  };
}

/**
 * Per agent, its sessions' messages in time order, sessions ordered by when they started (not by
 * where they sit in the log: a backfilled old session must be reconciled before a newer one).
 */
function groupByAgent(messages: L0Message[]): Map<string, L0Record[][]> {
  const sessions = new Map<string, { agentId: string; records: L0Record[] }>();
  for (const m of messages) {
    const k = `${m.record.agentId}\u0000${m.record.sessionKey}`;
    let s = sessions.get(k);
    if (!s) sessions.set(k, (s = { agentId: m.record.agentId, records: [] }));
    s.records.push(m.record);
  }
  const byAgent = new Map<string, L0Record[][]>();
  for (const s of sessions.values()) {
    s.records.sort((a, b) => a.timestamp - b.timestamp);
    byAgent.set(s.agentId, [...(byAgent.get(s.agentId) ?? []), s.records]);
  }
  for (const list of byAgent.values()) list.sort((a, b) => (a[0]?.timestamp ?? 0) - (b[0]?.timestamp ?? 0));
  return byAgent;
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

function errorInfo(error: unknown): { code: string; message: string } {
  if (StrataError.isInstance(error)) return { code: error.code, message: error.message };
  return { code: 'UNKNOWN', message: (error as Error)?.message ?? String(error) };
}

export async function runDistill(options: DistillOptions): Promise<DistillReport> {
  const progress = options.progress ?? new FileDistillProgress({ home: options.home });
  return progress.exclusive({ timeoutMs: options.lockTimeoutMs ?? 0, staleMs: options.lockStaleMs, abortSignal: options.abortSignal }, () =>
    distillLocked(options, progress),
  );
}

async function distillLocked(options: DistillOptions, progress: DistillProgressV1): Promise<DistillReport> {
  const { ctx, llm } = options;
  const now = options.now ?? (() => ctx.now());
  const dryRun = options.dryRun === true;
  const report = emptyReport(llm ? 'llm' : 'rules', dryRun);
  const history = options.history ?? new HistoryLog({ home: options.home });
  const cursor = new DistillCursor({ progress, log: ctx.l0 });
  const budget = new BudgetTracker({ progress, budget: options.budget });
  const gate = createAdmissionGate({ minConfidence: options.minConfidence });
  const caps = { maxMemoriesPerRun: 50, maxMemoriesPerAgent: 20, maxMessagesPerRun: 2000, maxPerTurn: 3, ...options.caps };
  await cursor.load();
  await budget.load(now());
  // Budgets and chunks are measured with the real tokenizer (loaded only when a model is called).
  if (llm) await loadTokenizer();

  const pending = (await cursor.readPending({ maxMessages: caps.maxMessagesPerRun })).filter(
    (m) => !options.agentId || m.record.agentId === options.agentId,
  );
  report.messages.read = pending.length;
  // Messages that can never yield a memory (tool output, system, empty) are done as soon as read.
  const usefulRoles = DISTILLED_ROLES;
  const trivial = pending.filter((m) => !usefulRoles.has(m.record.role) || m.record.content.trim() === '').map((m) => m.key);
  const keyOf = new Map(pending.map((m) => [m.record, m.key]));
  const chunkTokens = options.chunkTokens ?? 3000;
  const usage: LlmUsage = { inputTokens: 0, outputTokens: 0 };
  const perAgent = new Map<string, number>();
  let stop = false;
  const blockedAgents = new Set<string>();

  const spend = async (u: LlmUsage, calls: number) => {
    usage.inputTokens += u.inputTokens;
    usage.outputTokens += u.outputTokens;
    report.llmCalls += calls;
    await budget.spend({ calls, tokens: u.inputTokens + u.outputTokens, now: now() });
  };
  const fail = (stage: DistillError['stage'], batch: L0Record[], error: unknown) => {
    report.chunks.failed++;
    const sessions = [...new Set(batch.map((m) => m.sessionKey))];
    report.errors.push({ stage, agentId: batch[0]?.agentId ?? '', sessionKey: sessions.join(','), ...errorInfo(error) });
    // Garbage from the model affects one batch; a transport or store failure would fail every batch.
    if (!(error instanceof LlmOutputError)) stop = true;
    // Later batches of the same agent wait too: distilling a newer session before an older one
    // could let the older fact win when the older one is finally redone.
    blockedAgents.add(batch[0]?.agentId ?? '');
  };

  /** Reconciles, stores and commits one session's share of a batch; false when the run must stop there. */
  const settleSession = async (part: { sessionKey: string; messages: L0Record[]; candidates: Candidate[] }): Promise<boolean> => {
    let decisions;
    try {
      if (
        llm &&
        part.candidates.length > 0 &&
        !budget.check({ calls: 1, tokens: estimateReconcileTokens(part.candidates), now: now() }).ok
      ) {
        // Extraction fit but reconciliation does not: the rest waits (its extraction is redone later).
        report.budget = { exhausted: true, limit: 'reconcile' };
        stop = true;
        return false;
      }
      const result = await reconcile({ ctx, candidates: part.candidates, llm, abortSignal: options.abortSignal });
      if (result.llmCalls > 0) await spend(result.usage, result.llmCalls);
      decisions = result.decisions;
    } catch (error) {
      fail('reconcile', part.messages, error);
      return false;
    }
    if (dryRun) {
      for (const d of decisions) report.decisions[d.kind]++;
      return true;
    }
    try {
      const applied = await applyDecisions({ ctx, history, decisions, actor: 'distill', abortSignal: options.abortSignal });
      for (const a of applied) report.decisions[a.kind]++;
      report.changes.push(...applied.filter((a) => a.kind !== 'skip'));
    } catch (error) {
      fail('store', part.messages, error);
      return false;
    }
    await cursor.commit({ keys: part.messages.map((m) => keyOf.get(m)!).concat(trivial) });
    report.messages.distilled += part.messages.length;
    return true;
  };

  for (const [agentId, sessions] of groupByAgent(pending)) {
    if (!isValidAgentId(agentId)) {
      // Older L0 data can hold such ids; their messages are reported, never filed under another scope.
      const records = sessions.flat();
      report.errors.push({
        stage: 'extract',
        agentId,
        sessionKey: [...new Set(records.map((r) => r.sessionKey))].join(','),
        ...errorInfo(catchError(() => assertAgentId(agentId))),
      });
      if (!dryRun) await cursor.commit({ keys: records.map((m) => keyOf.get(m)!) });
      report.messages.distilled += dryRun ? 0 : records.length;
      continue;
    }
    const chunks = sessions.flatMap((records) =>
      chunkMessages({ messages: records.filter((m) => usefulRoles.has(m.role) && m.content.trim() !== ''), maxTokens: chunkTokens }),
    );
    for (const batch of packChunks({ chunks, maxTokens: chunkTokens })) {
      if (stop || blockedAgents.has(agentId)) break;
      options.abortSignal?.throwIfAborted();
      const agentCount = perAgent.get(agentId) ?? 0;
      if (report.admitted >= caps.maxMemoriesPerRun || agentCount >= caps.maxMemoriesPerAgent) {
        report.chunks.deferred++;
        continue;
      }
      let candidates: Candidate[];
      if (llm) {
        const allowed = budget.check({ calls: 2, tokens: estimateExtractionTokens(batch, { maxTokens: chunkTokens }) * 2, now: now() });
        if (!allowed.ok) {
          report.budget = { exhausted: true, limit: allowed.limit, ...(allowed.resumeAt ? { resumeAt: allowed.resumeAt } : {}) };
          stop = true;
          break;
        }
        try {
          const extracted = await extractWithLlm({ llm, agentId, messages: batch, chunkTokens, abortSignal: options.abortSignal });
          await spend(extracted.usage, extracted.calls);
          // Each memory is also checked against what the user said in its session (grounding.ts).
          candidates = extracted.candidates.filter(
            (c) => gate.admit({ text: c.text, confidence: c.confidence, source: 'llm', evidence: evidenceFor(c, batch) }).admitted,
          );
        } catch (error) {
          // Failed calls still count against the budget (their tokens are unknown here; the usage log has them).
          await spend({ inputTokens: 0, outputTokens: 0 }, error instanceof LlmOutputError ? 2 : 1);
          fail('extract', batch, error);
          continue;
        }
      } else {
        candidates = extractByRules({ agentId, messages: batch, gate, maxPerTurn: caps.maxPerTurn, scope: options.ruleScope });
      }
      // Reconciled in the order they were stated, so a later statement can replace an earlier one.
      candidates.sort((a, b) => statedAtOf(a) - statedAtOf(b));
      perAgent.set(agentId, agentCount + candidates.length);
      report.admitted += candidates.length;
      // Sessions packed into one extraction call are reconciled one after another, in order, so
      // a later session can supersede what an earlier one just stored.
      const sessionKeys = [...new Set(batch.map((m) => m.sessionKey))];
      let settled = 0;
      for (const sessionKey of sessionKeys) {
        const done = await settleSession({
          sessionKey,
          messages: batch.filter((m) => m.sessionKey === sessionKey),
          candidates: candidates.filter((c) => c.sessionKey === sessionKey),
        });
        if (!done) break;
        settled++;
      }
      if (settled === sessionKeys.length) report.chunks.processed++;
    }
    if (stop) break;
  }
  if (!dryRun && trivial.length > 0) await cursor.commit({ keys: trivial });
  if (!dryRun) report.messages.distilled += trivial.length;
  report.messages.pending = report.messages.read - report.messages.distilled;

  const counts = gate.counts();
  report.candidates = counts.admitted + counts.rejected;
  report.rejected = { total: counts.rejected, byReason: counts.byReason };
  report.tokens = { input: usage.inputTokens, output: usage.outputTokens, total: usage.inputTokens + usage.outputTokens };
  report.cost = llm ? costOf({ pricing: llm.pricing, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }) : null;
  return report;
}
