/**
 * Calendar days in the user's time zone (config `timezone`, default the system's): a user in
 * UTC−8 expects their evening in today's day file and journal, not tomorrow's.
 */

/** The system's IANA zone (honours `TZ`); `UTC` when the platform names none. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** True for a zone name Intl knows (IANA names such as `America/Los_Angeles`, or `UTC`). */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of `date` in `timeZone` (default UTC). */
export function dayInZone(date: Date, timeZone = 'UTC'): string {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats dates as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(date);
}

/** The day before `day` (`YYYY-MM-DD`), calendar arithmetic only. */
export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
