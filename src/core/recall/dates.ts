/**
 * Time named in a query ("on 8 May 2022", "in June", "last week of August", "last Tuesday",
 * "in 2023"), parsed with chrono-node against the recall's clock, as a range of epoch ms. Recall
 * then prefers memories and turns dated in that range (`dateMatch`): a memory's `validFrom`, a
 * conversation turn's session date.
 */
import type * as Chrono from 'chrono-node';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

export interface QueryTimeRange {
  /** Inclusive start and exclusive end, epoch ms (UTC). */
  start: number;
  end: number;
  /** The words that named the time, e.g. "last week of August". */
  text: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3 };

/** chrono's casual English parser plus two phrasings it does not cover: bare years and "<nth> week of <month>". */
function createParser(chrono: typeof Chrono): Chrono.Chrono {
  const parser = chrono.casual.clone();
  parser.parsers.push({
    pattern: () => /\b(?:in|during|since|of|for)\s+((?:19|20)\d{2})\b(?!\s*[-/:])/i,
    extract: (context, match) => {
      const components = context.createParsingComponents({ year: Number(match[1]) });
      components.imply('month', 1);
      components.imply('day', 1);
      components.addTag('strata/year');
      return components;
    },
  });
  parser.parsers.push({
    pattern: () =>
      new RegExp(`\\b(first|second|third|fourth|last)\\s+week\\s+of\\s+(${MONTHS.join('|')})(?:,?\\s+((?:19|20)\\d{2}))?\\b`, 'i'),
    extract: (context, match) => {
      const month = MONTHS.indexOf(match[2]!.toLowerCase());
      const refYear = context.reference.instant.getUTCFullYear();
      let year = match[3] ? Number(match[3]) : refYear;
      // Without a year, a month after the reference month means last year's.
      if (!match[3] && month > context.reference.instant.getUTCMonth()) year -= 1;
      const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
      const which = match[1]!.toLowerCase();
      const day = which === 'last' ? last - 6 : 1 + 7 * (ORDINALS[which] ?? 0);
      const components = context.createParsingComponents({ year, month: month + 1, day });
      components.addTag('strata/week');
      return components;
    },
  });
  return parser;
}

/** chrono-node is loaded on the first query (it costs a CLI start tens of milliseconds otherwise). */
let parser: Promise<Chrono.Chrono> | undefined;

function utcDay(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/**
 * The time range a query names, or null. With several expressions ("last weekend before April
 * 10, 2023") the one with an explicit year wins, as relative words are then relative to it.
 */
export async function parseQueryTime(options: { query: string; now: Date }): Promise<QueryTimeRange | null> {
  parser ??= import('chrono-node').then((chrono) => {
    const created = createParser(chrono);
    // chrono compiles its patterns on first use (~250 ms); pay that while loading, where engine
    // warm-ups already wait, not on the first real query.
    created.parse('Met on 8 May 2022 at 5pm, two weeks ago, last Tuesday and next month', { instant: options.now, timezone: 'UTC' });
    return created;
  });
  const results = (await parser).parse(options.query, { instant: options.now, timezone: 'UTC' }, { forwardDate: false });
  if (results.length === 0) return null;
  const result = results.find((r) => r.start.isCertain('year')) ?? results[0]!;
  const start = result.start;
  const text = result.text;
  let from = utcDay(start.date());
  let to: number;
  if (result.end) {
    to = utcDay(result.end.date()) + DAY;
  } else if (start.tags().has('strata/year')) {
    from = Date.UTC(start.get('year') ?? 1970, 0, 1);
    to = Date.UTC((start.get('year') ?? 1970) + 1, 0, 1);
  } else if (start.tags().has('strata/week') || /\bweek\b/i.test(text)) {
    to = from + WEEK;
  } else if (/\bweekend\b/i.test(text)) {
    to = from + 2 * DAY;
  } else if (start.isCertain('day') || start.isCertain('weekday')) {
    to = from + DAY;
  } else if (start.isCertain('month')) {
    const year = start.get('year') ?? 1970;
    const month = (start.get('month') ?? 1) - 1;
    from = Date.UTC(year, month, 1);
    to = Date.UTC(year, month + 1, 1);
  } else if (start.isCertain('year')) {
    from = Date.UTC(start.get('year') ?? 1970, 0, 1);
    to = Date.UTC((start.get('year') ?? 1970) + 1, 0, 1);
  } else {
    to = from + DAY;
  }
  return { start: from, end: to, text };
}

/**
 * How well a date fits the range: 1 inside it (or up to one range length, at least a week, after
 * it: people tell of events in the days after), halving with every further range length outside.
 */
export function dateMatch(options: { time: number; range: QueryTimeRange }): number {
  const { time, range } = options;
  if (!Number.isFinite(time)) return 0;
  const span = Math.max(WEEK, range.end - range.start);
  const from = range.start - DAY;
  const to = range.end + span;
  if (time >= from && time < to) return 1;
  const distance = time < from ? from - time : time - to;
  return Math.pow(0.5, distance / span);
}
