/**
 * A temporary Strata home whose L0 log holds one real transcript (as capture writes it), for the
 * benchmarks that distil real transcripts. The home and the engine are removed afterwards.
 */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineContext } from '../../src/core/engine/context.js';
import type { L0Record } from '../../src/spec/conversation.js';
import { Strata } from '../../src/strata.js';
import { readRealTranscript, type RealTranscript } from './real-transcripts.js';

export interface RealHome {
  home: string;
  strata: Strata;
  ctx: EngineContext;
  records: L0Record[];
}

export async function withRealTranscriptHome<T>(t: RealTranscript, fn: (h: RealHome) => Promise<T>): Promise<T> {
  const records: L0Record[] = readRealTranscript(t).map(({ line: _l, transcript: _t, ...r }) => r);
  const home = await mkdtemp(join(tmpdir(), 'strata-bench-real-'));
  const strata = await Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
  try {
    await mkdir(join(home, 'conversations'), { recursive: true });
    await appendFile(join(home, 'conversations', '2026-01-01.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const ctx = (strata as unknown as { ctx: EngineContext }).ctx;
    return await fn({ home, strata, ctx, records });
  } finally {
    await strata.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** Caps high enough that a benchmark run distils a whole transcript at once. */
export const UNCAPPED = { maxMemoriesPerRun: 10_000, maxMemoriesPerAgent: 10_000, maxMessagesPerRun: 100_000 };
