import { appendFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LlmPricing } from '../../spec/llm.js';
import type { LlmUsageEntry, UsageLogCapabilities, UsageLogV1 } from '../../spec/usage-log.js';
import { redactDeep } from '../write/redact-record.js';

/**
 * Append-only JSONL log of LLM calls, one file per UTC month: `<home>/usage/llm-YYYY-MM.jsonl`.
 * One line per logical call (retries folded in), written with a single append so concurrent
 * processes interleave whole lines; readers skip a torn last line. `FileUsageLog` is the
 * UsageLogV1 over these files; a shared deployment uses the database instead.
 */
export type { LlmUsageEntry } from '../../spec/usage-log.js';

export interface UsageTotals {
  calls: number;
  failedCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Calls whose model had no price (their cost is not in `costUsd`). */
  unpricedCalls: number;
}

export interface UsageSummary extends UsageTotals {
  byPurpose: Record<string, UsageTotals>;
  byModel: Record<string, UsageTotals>;
  byMonth: Record<string, UsageTotals>;
}

export function usageLogPath(options: { home: string; at: Date }): string {
  const month = options.at.toISOString().slice(0, 7);
  return join(options.home, 'usage', `llm-${month}.jsonl`);
}

export async function appendUsage(options: { home: string; entry: LlmUsageEntry }): Promise<void> {
  const path = usageLogPath({ home: options.home, at: new Date(options.entry.at) });
  await mkdir(join(options.home, 'usage'), { recursive: true });
  await appendFile(path, `${JSON.stringify(redactDeep(options.entry))}\n`, 'utf8');
}

export function costOf(options: { pricing: LlmPricing | undefined; inputTokens: number; outputTokens: number }): number | null {
  if (!options.pricing) return null;
  return (options.inputTokens * options.pricing.inputPerMillion + options.outputTokens * options.pricing.outputPerMillion) / 1_000_000;
}

function emptyTotals(): UsageTotals {
  return { calls: 0, failedCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0 };
}

function add(totals: UsageTotals, entry: LlmUsageEntry): void {
  totals.calls++;
  if (!entry.ok) totals.failedCalls++;
  totals.inputTokens += entry.inputTokens;
  totals.outputTokens += entry.outputTokens;
  if (entry.costUsd === null) totals.unpricedCalls++;
  else totals.costUsd += entry.costUsd;
}

function isEntry(value: unknown): value is LlmUsageEntry {
  const v = value as Partial<LlmUsageEntry> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.at === 'string' &&
    typeof v.inputTokens === 'number' &&
    typeof v.outputTokens === 'number'
  );
}

/** Sums the usage log (default: the files under `home`), optionally only entries at or after `since`. */
export async function summarizeUsage(options: { home: string; log?: UsageLogV1; since?: Date }): Promise<UsageSummary> {
  const log = options.log ?? new FileUsageLog({ home: options.home });
  const summary: UsageSummary = { ...emptyTotals(), byPurpose: {}, byModel: {}, byMonth: {} };
  for await (const entry of log.entries({ since: options.since?.toISOString() })) {
    add(summary, entry);
    add((summary.byPurpose[entry.purpose] ??= emptyTotals()), entry);
    add((summary.byModel[`${entry.provider}:${entry.model}`] ??= emptyTotals()), entry);
    add((summary.byMonth[entry.at.slice(0, 7)] ??= emptyTotals()), entry);
  }
  return summary;
}

export class FileUsageLog implements UsageLogV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'files';
  readonly capabilities: UsageLogCapabilities = { shared: false };
  private readonly home: string;

  constructor(options: { home: string }) {
    this.home = options.home;
  }

  async append(options: { entries: LlmUsageEntry[] }): Promise<void> {
    for (const entry of options.entries) await appendUsage({ home: this.home, entry });
  }

  async *entries(options: { since?: string } = {}): AsyncGenerator<LlmUsageEntry> {
    const dir = join(this.home, 'usage');
    let files: string[];
    try {
      files = (await readdir(dir)).filter((f) => /^llm-\d{4}-\d{2}\.jsonl$/.test(f)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const sinceMonth = options.since?.slice(0, 7);
    for (const file of files) {
      if (sinceMonth && file.slice(4, 11) < sinceMonth) continue;
      const text = await readFile(join(dir, file), 'utf8');
      const out: LlmUsageEntry[] = [];
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          continue; // torn line from a crash mid-append
        }
        if (!isEntry(entry) || (options.since && entry.at < options.since)) continue;
        out.push(entry);
      }
      // Appends from several processes interleave: oldest first within the month.
      yield* out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    }
  }

  async close(): Promise<void> {}
}
