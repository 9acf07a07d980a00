import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readCompleteLines } from '../../capture/line-reader.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { CONVERSATION_HOSTS, CONVERSATION_ROLES, type L0Record } from '../../spec/conversation.js';
import type { L0Position } from '../../spec/l0-log.js';
import { isNotFound } from '../../util/fs-util.js';
import { dayInZone } from '../../util/time-zone.js';

/**
 * The day files (`YYYY-MM-DD.jsonl`, the day in config `timezone`) and positions in them. A position is the day and the
 * byte offset just past an entry's newline, written so that string order is log order:
 * `2026-11-21:000000000012345`. Appends only ever go to the newest day file, so a later entry
 * always has a greater position.
 */
const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const OFFSET_DIGITS = 15;
const POSITION = /^(\d{4}-\d{2}-\d{2}):(\d{15})$/;

export function encodePosition(day: string, offset: number): L0Position {
  return `${day}:${String(offset).padStart(OFFSET_DIGITS, '0')}`;
}

export function decodePosition(position: L0Position): { day: string; offset: number } {
  const m = POSITION.exec(position);
  if (!m) {
    throw new InvalidArgumentError({
      argument: 'after',
      message: `${JSON.stringify(position)} is not a position of the JSONL conversation log (a reader's saved cursor from another log?). Reset that cursor to read from the start.`,
    });
  }
  return { day: m[1]!, offset: Number(m[2]) };
}

/** The day file a write at `date` goes to: the calendar day in the log's time zone. */
export function dayOf(date: Date, timeZone?: string): string {
  return dayInZone(date, timeZone);
}

/** Day file names, oldest first. */
export async function listDays(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .flatMap((e) => (e.isFile() ? [DAY_FILE.exec(e.name)?.[1]] : []))
      .filter((d): d is string => d !== undefined)
      .sort();
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

export function dayPath(dir: string, day: string): string {
  return join(dir, `${day}.jsonl`);
}

const HOSTS = new Set<string>(CONVERSATION_HOSTS);
const ROLES = new Set<string>(CONVERSATION_ROLES);

/** A parsed line when it is a well-formed record, else undefined (torn or foreign line). */
export function parseRecord(text: string): L0Record | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = v as Partial<L0Record> | null;
  if (typeof r !== 'object' || r === null) return undefined;
  const ok =
    typeof r.id === 'string' &&
    typeof r.content === 'string' &&
    typeof r.agentId === 'string' &&
    typeof r.sessionId === 'string' &&
    typeof r.sessionKey === 'string' &&
    typeof r.timestamp === 'number' &&
    typeof r.recordedAt === 'string' &&
    typeof r.host === 'string' &&
    HOSTS.has(r.host) &&
    typeof r.role === 'string' &&
    ROLES.has(r.role);
  return ok ? (r as L0Record) : undefined;
}

export interface DayLine {
  day: string;
  /** Offset just past the line's newline. */
  end: number;
  /** The raw text, or undefined for an undecodable line. */
  text: string | undefined;
}

/** Complete lines of the log after `after` (from the start when omitted), day by day. */
export async function* linesAfter(dir: string, after: L0Position | undefined): AsyncGenerator<DayLine> {
  const from = after === undefined ? undefined : decodePosition(after);
  for (const day of await listDays(dir)) {
    if (from && day < from.day) continue;
    const start = from && day === from.day ? from.offset : 0;
    try {
      for await (const chunk of readCompleteLines({ path: dayPath(dir, day), start })) {
        for (const line of chunk.lines) yield { day, end: line.end, text: line.text };
      }
    } catch (error) {
      if (!isNotFound(error)) throw error; // a day file removed by hand while reading
    }
  }
}
