/**
 * Day logs `<home>/journal/YYYY-MM-DD.md`. An append rewrites the file atomically under one
 * journal-wide lock: readers never see a torn entry and two appending processes lose nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { withFileLock } from '../../util/file-lock.js';
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

export function dayLogPath(paths: JournalPaths, at: Date, timeZone?: string): string {
  return join(paths.dir, `${dayOf(at, timeZone)}.md`);
}

/** Appends `text` to the day log of `at` (created with a title when missing); returns its path. */
export async function appendToDayLog(options: { paths: JournalPaths; at: Date; text: string; timeZone?: string }): Promise<string> {
  const path = dayLogPath(options.paths, options.at, options.timeZone);
  await withFileLock({ path: options.paths.appendLock }, async () => {
    let current: string;
    try {
      current = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      current = `# Journal ${dayOf(options.at, options.timeZone)}\n\n`;
    }
    const separator = current.length === 0 || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
    await writeFileAtomic({ path, data: current + separator + redactText(options.text) });
  });
  return path;
}
