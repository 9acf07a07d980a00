/**
 * Lets a capture that is under way finish before a one-shot OpenClaw command exits.
 *
 * OpenClaw fires `agent_end` without waiting for it and `openclaw agent --local` then ends with
 * `process.exit()` as soon as the reply is written (2026.9.2 does; the hook runner gives the
 * handler no way to hold the process). A capture started by that hook would die half done, so the
 * turn would only be captured with the session's next snapshot, or never for a session's last
 * turn. While work registered here is in flight, `process.exit` waits for it (never longer than
 * `maxWaitMs`) and then exits with the code it was asked for. With nothing in flight it exits at
 * once, exactly as before. Installed once per process, on the first registered work.
 */

const GUARD = Symbol.for('strata.openclaw.exit-guard.v1');

interface ExitGuard {
  pending: Set<Promise<unknown>>;
  maxWaitMs: number;
  exiting: boolean;
}

function guard(): ExitGuard {
  const holder = globalThis as { [GUARD]?: ExitGuard };
  if (holder[GUARD]) return holder[GUARD];
  const state: ExitGuard = { pending: new Set(), maxWaitMs: 10_000, exiting: false };
  holder[GUARD] = state;
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    if (state.pending.size === 0 || state.exiting) return exit(code);
    state.exiting = true; // a second exit() while waiting changes nothing: the first code wins
    const timer = setTimeout(() => exit(code), state.maxWaitMs);
    void Promise.allSettled([...state.pending]).then(() => {
      clearTimeout(timer);
      exit(code);
    });
    return undefined as never;
  }) as typeof process.exit;
  return state;
}

/** Keeps `process.exit` from cutting `work` short (bounded); returns `work`. */
export function holdExitFor<T>(work: Promise<T>, options: { maxWaitMs?: number } = {}): Promise<T> {
  const state = guard();
  if (options.maxWaitMs !== undefined) state.maxWaitMs = options.maxWaitMs;
  state.pending.add(work);
  void work.then(
    () => state.pending.delete(work),
    () => state.pending.delete(work),
  );
  return work;
}
