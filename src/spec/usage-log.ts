/**
 * LLM usage log specification, version 1: one entry per logical LLM call (retries folded in),
 * append-only, read back for `strata usage` and budgets. A shared deployment keeps it in the
 * database, so the usage and cost of every machine's calls add up in one place.
 */

export interface LlmUsageEntry {
  /** ISO time the call finished. */
  at: string;
  provider: string;
  model: string;
  /** What the call was for, e.g. `distill.extract`; `unlabelled` when the caller gave none. */
  purpose: string;
  ok: boolean;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when no price is known for the model. */
  costUsd: number | null;
  latencyMs: number;
  attempts: number;
  errorCode?: string;
}

export interface UsageLogCapabilities {
  /** Reachable from other machines (a database server), not only from this one. */
  shared: boolean;
}

export interface UsageLogV1 {
  readonly specificationVersion: 'v1';
  /** e.g. `files` (monthly JSONL files under the home) or `postgres`. */
  readonly provider: string;
  readonly capabilities: UsageLogCapabilities;
  /** Stores the entries (already redacted by the engine); concurrent appends never lose or tear one another. */
  append(options: { entries: LlmUsageEntry[] }): Promise<void>;
  /** Every entry at or after `since` (ISO time; default all), oldest first. */
  entries(options?: { since?: string }): AsyncIterable<LlmUsageEntry>;
  close(): Promise<void>;
}
