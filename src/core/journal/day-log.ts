/**
 * Day log entries: rendered from the model's structured reply, appended to the day's log in the
 * journal store (which keeps appends whole and lossless across processes).
 */
import { dirname } from 'node:path';
import { InvalidArgumentError } from '../../errors/index.js';
import type { JournalStoreV1 } from '../../spec/journal-store.js';
import { FileJournalStore } from './file-store.js';
import { dayOf, type JournalPaths } from './options.js';
import { redactText } from '../write/redact-record.js';

export interface JournalEntry {
  worthKeeping: boolean;
  context: string;
  keyExchanges: string[];
  decisions: string[];
  lessons: string[];
  actionItems: string[];
}

/** One line of model text: no headings or line breaks that could reshape the log. */
function line(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/^#+\s*/, '')
    .trim();
}

function items(list: string[]): string[] {
  return list.map(line).filter((s) => s.length > 0);
}

export function hasContent(entry: JournalEntry): boolean {
  return (
    line(entry.context).length > 0 ||
    [entry.keyExchanges, entry.decisions, entry.lessons, entry.actionItems].some((l) => items(l).length > 0)
  );
}

export function entryHeading(options: { at: Date; sessionId: string; agentId: string | null }): string {
  const time = options.at.toISOString().slice(11, 16);
  return `## ${time} UTC · session ${line(options.sessionId)}${options.agentId ? ` (agent ${line(options.agentId)})` : ''}`;
}

export function renderEntry(options: {
  entry: JournalEntry | null;
  at: Date;
  sessionId: string;
  agentId: string | null;
  messages: number;
}): string {
  const parts = [entryHeading(options), ''];
  const entry = options.entry;
  if (!entry || !entry.worthKeeping || !hasContent(entry)) {
    parts.push(`Nothing worth keeping (${options.messages} messages reviewed).`, '');
    return parts.join('\n') + '\n';
  }
  const context = line(entry.context);
  if (context) parts.push(`**Context:** ${context}`, '');
  const sections: Array<[string, string[]]> = [
    ['Key exchanges', entry.keyExchanges],
    ['Decisions', entry.decisions],
    ['Lessons', entry.lessons],
    ['Action items', entry.actionItems],
  ];
  for (const [title, list] of sections) {
    const kept = items(list);
    if (kept.length === 0) continue;
    parts.push(`**${title}:**`, ...kept.map((i) => `- ${i}`), '');
  }
  return parts.join('\n') + '\n';
}

/**
 * Appends `text` (redacted) to the day log of `at` in `store` (created with a title when missing);
 * returns where the log is. Without a store, the file store of the journal `paths` belongs to.
 */
export async function appendToDayLog(options: {
  store?: JournalStoreV1;
  paths?: JournalPaths;
  at: Date;
  text: string;
  timeZone?: string;
}): Promise<string> {
  if (!options.store && !options.paths)
    throw new InvalidArgumentError({
      argument: 'store',
      message: 'appendToDayLog needs a journal store (or the paths of a file journal).',
    });
  const store = options.store ?? new FileJournalStore({ home: dirname(options.paths!.dir) });
  const day = dayOf(options.at, options.timeZone);
  await store.appendToDay({ day, text: redactText(options.text) });
  return store.dayLocation(day);
}
