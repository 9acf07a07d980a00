import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { InvalidArgumentError } from '../errors/index.js';
import { ingest, type IngestOptions, type IngestSummary } from './ingest.js';
import { READERS } from './readers/index.js';

/**
 * Continuous ingest for `strata watch`: file-system events (recursive `fs.watch`) trigger a
 * debounced run; a polling timer is the fallback where events are unavailable or unreliable
 * (network drives, editors replacing files) and a safety net otherwise. Runs never overlap. When
 * `abortSignal` fires, the run in progress stops at its next batch boundary with its cursors
 * committed, and `watch` resolves.
 */
export interface WatchOptions extends Omit<IngestOptions, 'abortSignal' | 'dryRun'> {
  /** Required: aborting it is how a watcher stops (SIGINT/SIGTERM handlers abort it). */
  abortSignal: AbortSignal;
  /** Poll interval (fallback and safety net). Default 5,000 ms. */
  pollIntervalMs?: number;
  /** Quiet time after the last file event before a run starts. Default 500 ms. */
  debounceMs?: number;
  onRun?: (summary: IngestSummary) => void;
  /** One ingest run; default capture's `ingest` (`Strata.watch` passes its own, which also indexes). */
  run?: (options: IngestOptions) => Promise<IngestSummary>;
  /** A failed run is reported here and retried on the next trigger; watching goes on. */
  onError?: (error: unknown) => void;
}

export interface WatchResult {
  runs: number;
  /** Whether file-system events were available (otherwise polling only). */
  events: boolean;
}

function watchRoots(options: WatchOptions): string[] {
  const env = options.env ?? process.env;
  const roots = new Set<string>();
  for (const source of options.sources ?? ['all']) {
    if (source === 'all') {
      for (const kind of ['openclaw', 'claude-code', 'codex'] as const) for (const r of READERS[kind].defaultRoot(env)) roots.add(r);
    } else if (typeof source === 'string') for (const r of READERS[source].defaultRoot(env)) roots.add(r);
    else if (source.root) roots.add(source.root);
    else for (const r of READERS[source.kind].defaultRoot(env)) roots.add(r);
  }
  return [...roots];
}

export async function watch(options: WatchOptions): Promise<WatchResult> {
  const { abortSignal } = options;
  if (!abortSignal)
    throw new InvalidArgumentError({ argument: 'abortSignal', message: 'watch() needs an abortSignal: abort it to stop watching.' });
  const pollMs = options.pollIntervalMs ?? 5_000;
  const debounceMs = options.debounceMs ?? 500;
  let runs = 0;
  let dirty = true;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    dirty = true;
    wake?.();
  };

  const watchers: FSWatcher[] = [];
  let debounce: NodeJS.Timeout | undefined;
  for (const root of watchRoots(options)) {
    try {
      const w = fsWatch(root, { recursive: true, persistent: false }, () => {
        clearTimeout(debounce);
        debounce = setTimeout(poke, debounceMs);
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // Missing folder or no recursive watching here: polling covers it.
    }
  }
  const poll = setInterval(poke, pollMs);
  const onAbort = (): void => wake?.();
  abortSignal.addEventListener('abort', onAbort);
  try {
    while (!abortSignal.aborted) {
      if (dirty) {
        dirty = false;
        try {
          const summary = await (options.run ?? ingest)({ ...options, abortSignal });
          runs += 1;
          options.onRun?.(summary);
        } catch (error) {
          options.onError?.(error);
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    abortSignal.removeEventListener('abort', onAbort);
    clearInterval(poll);
    clearTimeout(debounce);
    for (const w of watchers) w.close();
  }
  return { runs, events: watchers.length > 0 };
}
