import cliProgress from 'cli-progress';

/** A progress bar on a TTY (stderr), nothing otherwise, so piped output stays clean. */
export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

export function createProgress(label: string, total?: number): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {duration_formatted}`, stream: process.stderr, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total ?? 0, 0);
  return {
    update(done, t) {
      if (t !== undefined) bar.setTotal(t);
      else if (done > bar.getTotal()) bar.setTotal(done);
      bar.update(done);
    },
    stop() {
      bar.stop();
    },
  };
}
