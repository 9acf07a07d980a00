/** Human and machine output for the CLI. JSON goes to stdout only; diagnostics to stderr. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, isoTimes, 2) + '\n');
}

/** Time fields held as epoch milliseconds internally (`timestamp`, `lastTimestamp`, `*At`) print as ISO 8601, like every other date. */
const TIME_KEY = /^(timestamp|.*Timestamp|.*At)$/;
function isoTimes(key: string, value: unknown): unknown {
  return typeof value === 'number' && TIME_KEY.test(key) && value > 1e11 && value < 1e14 ? new Date(value).toISOString() : value;
}

function truncate(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat : flat.slice(0, Math.max(0, width - 1)) + '…';
}

/** A plain aligned table; the last column is truncated to fit the terminal. */
export function printTable(headers: string[], rows: Array<Array<string | number>>): void {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const termWidth = process.stdout.columns ?? 120;
  const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  const lastWidth = Math.max(20, termWidth - fixed - 1);
  widths[widths.length - 1] = Math.min(widths[widths.length - 1] ?? lastWidth, lastWidth);
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? truncate(c, widths[i] ?? 20) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  process.stdout.write(line(headers) + '\n');
  process.stdout.write(widths.map((w) => '-'.repeat(w)).join('  ') + '\n');
  for (const r of cells) process.stdout.write(line(r) + '\n');
}

export function shortDate(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 10) : '-';
}
