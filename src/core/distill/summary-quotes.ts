/**
 * Claude Code's compaction summary lists every message the user typed ("All user messages:", one
 * quoted bullet each). Those are the user's own words, the densest part of a summary for rules,
 * and after a compaction (or in a continued session's file) often the only copy left; so rule
 * capture reads them as user messages, not as summary prose.
 */
const HEADER = /^\s*(?:#{1,6}\s*)?(?:\d+\.\s*)?(?:\*\*)?all user messages(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$/i;
/** The next section ends the list: a markdown heading, or "7. Pending Tasks:" when sections are numbered. */
const HEADING = /^\s*#{1,6}\s+\S/;
const NUMBERED_SECTION = /^\s*\d+\.\s+(?:\*\*)?[A-Z][\w &/-]{2,60}(?:\*\*)?:\s*(?:\*\*)?\s*$/;
/** Items are bullets or, under a markdown heading, numbered ("1. \"sync the repo\""). */
const BULLET = /^\s*(?:[-*•]|\d{1,3}[.)])\s+(.*)$/;
/** A bullet: the quote, then the summariser's own remark in brackets ("continue" (after X compiled)). */
const QUOTED = /^["“](.+?)["”]\s*(?:\([^)]*\))?\s*[.,]?\s*$/s;

export interface SummaryQuotes {
  /** The summary without the user-message list. */
  rest: string;
  /** The user's messages as quoted, in order. */
  quotes: string[];
}

export function splitUserQuotes(summary: string): SummaryQuotes {
  const lines = summary.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((l) => HEADER.test(l));
  if (start < 0) return { rest: summary, quotes: [] };
  const ends = (line: string) => HEADING.test(line) || (!HEADING.test(lines[start]!) && NUMBERED_SECTION.test(line));
  let end = start + 1;
  while (end < lines.length && !ends(lines[end]!)) end++;
  const items: string[] = [];
  for (const line of lines.slice(start + 1, end)) {
    const bullet = BULLET.exec(line);
    if (bullet) items.push(bullet[1]!.trim());
    else if (line.trim() && items.length > 0) items[items.length - 1] += `\n${line.trim()}`;
  }
  const quotes = items.map((item) => QUOTED.exec(item)?.[1]?.trim() ?? item.trim()).filter((q) => q.length > 0);
  return { rest: [...lines.slice(0, start), ...lines.slice(end)].join('\n'), quotes };
}
