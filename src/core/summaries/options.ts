import { InvalidArgumentError } from '../../errors/index.js';

/** Settings of the hierarchical summaries (config section `summaries`). */
export interface SummaryOptions {
  /** Messages become eligible once this many tokens of the same session come after them. */
  boundaryTokens: number;
  /** A chunk of messages is cut (on message boundaries) at about this many tokens. */
  chunkTokens: number;
  /** Target length of every summary, chunk or merged. */
  summaryTokens: number;
  /** This many unmerged summaries at one level merge into one at the next level. */
  mergeFanIn: number;
  /** Highest level; summaries at this level never merge further. Level 1 = chunk summaries. */
  maxLevel: number;
  /** Period of the background worker. */
  intervalMs: number;
}

export const DEFAULT_SUMMARY_OPTIONS: Readonly<SummaryOptions> = Object.freeze({
  boundaryTokens: 30_000,
  chunkTokens: 6_000,
  summaryTokens: 1_000,
  mergeFanIn: 6,
  maxLevel: 3,
  intervalMs: 600_000,
});

const MINIMUM: Record<keyof SummaryOptions, number> = {
  boundaryTokens: 0,
  chunkTokens: 1,
  summaryTokens: 1,
  mergeFanIn: 2,
  maxLevel: 1,
  intervalMs: 1,
};

/** Defaults filled in and every value checked, so a bad setting fails before any work. */
export function resolveSummaryOptions(partial: Partial<SummaryOptions> = {}): SummaryOptions {
  const out = { ...DEFAULT_SUMMARY_OPTIONS };
  for (const key of Object.keys(MINIMUM) as Array<keyof SummaryOptions>) {
    const value = partial[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < MINIMUM[key]) {
      throw new InvalidArgumentError({
        argument: `summaries.${key}`,
        message: `summaries.${key} must be an integer >= ${MINIMUM[key]} (got ${JSON.stringify(value)}); the default is ${DEFAULT_SUMMARY_OPTIONS[key]}.`,
      });
    }
    out[key] = value;
  }
  return out;
}
