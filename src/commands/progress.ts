import cliProgress from 'cli-progress';

/** A progress bar on a TTY (stderr), nothing otherwise, so piped output stays clean. */
export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;

/**
 * Every bar shows its total, the share done and an ETA (cli-progress estimates it from the recent
 * rate). `unit: 'bytes'` is for work whose item count is unknown up front (an import read as a
 * stream): the bar follows bytes read of the file's size.
 */
export function createProgress(label: string, total?: number, options: { unit?: 'bytes' | 'items' } = {}): Progress {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bytes = options.unit === 'bytes';
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% {value}/{total} | ETA {eta_formatted} | {duration_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
      formatValue: (v, _o, type) => (bytes && (type === 'value' || type === 'total') ? mb(v) : String(v)),
    },
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
