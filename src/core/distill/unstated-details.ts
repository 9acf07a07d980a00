/**
 * A memory's exact detail that its conversation never states: a port, a version, an address, a count
 * ("Blocky on port 5353" when the session only ever says 5335; "Phoenix LiveView 0.20" when nobody
 * named a version). An extractor sees only its batch, so a number it writes that the batch does not
 * hold was made up or misread, and a memory with a wrong detail is worse than none. Only details that
 * cannot come from rewording are judged: a single digit ("3 kids" from three names), a year or a date
 * (relative dates are resolved), a clock time said the other way round ("5 de la tarde" is 17:00), a
 * number the conversation spells out ("twelve", "doce", "十二个": spelt-numbers.ts) and common
 * conversions ("half an hour" is 30 minutes) all pass.
 */

import { speltNumbers } from '../write/spelt-numbers.js';

// Glued to a Latin letter ("v20", "x86", "16gb") it is a name or a unit, not judged; CJK text glues numbers to words.
const DETAIL = /(?<![A-Za-z\p{N}.,:-])\d+(?:,\d{3})*(?:[.:]\d+)*(?![A-Za-z\p{N}]|[.:,]\d)/gu;
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b/i;

/** Amounts said in words that an extractor writes in digits, beyond the numbers spelt-numbers.ts reads. */
const CONVERSIONS: Array<[RegExp, string]> = [
  [/\bhalf(?: an)? hour\b|\bmedia hora\b|半小时/u, '30'],
  [/\b(?:an|one) hour\b|\buna hora\b|一小时/u, '60'],
  [/\b(?:two weeks|fortnight|dos semanas)\b/u, '14'],
  [/\b(?:a|one) day\b|\bun dia\b/u, '24'],
  [/\b(?:a )?dozen\b|\bdocena\b/u, '12'],
  [/\b(?:a|one) hundred\b|\bcien\b/u, '100'],
  // Spanish "once" is eleven; spelt-numbers.ts leaves it out, as English "once" is one time.
  [/\bonce\b/u, '11'],
];

/** Numbers a text states in digits, in words or by a common conversion. */
function statedNumbers(text: string): Set<string> {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const out = new Set<string>();
  for (const m of folded.matchAll(/\d[\d,]*(?:[.:]\d+)*/g)) {
    out.add(m[0]);
    out.add(m[0].replace(/,/g, ''));
    // "3.400" is 3400 where a dot groups thousands (Spanish, German).
    if (/^\d{1,3}(?:\.\d{3})+$/.test(m[0])) out.add(m[0].replace(/\./g, ''));
    for (const part of m[0].split(/[.:]/)) out.add(String(Number(part.replace(/,/g, ''))));
  }
  for (const m of folded.matchAll(/(\d+(?:\.\d+)?)\s?k\b/g)) out.add(String(Math.round(Number(m[1]) * 1000)));
  for (const n of speltNumbers(folded)) out.add(n);
  for (const [re, n] of CONVERSIONS) if (re.test(folded)) out.add(n);
  return out;
}

/** A clock time whose hour the conversation gives in the other half of the day ("5pm", "las 5 de la tarde" for 17:00). */
function hourStated(time: string, stated: Set<string>): boolean {
  const [h, m] = time.split(':').map(Number);
  if (h === undefined || m === undefined || h > 24 || m > 59) return false;
  return stated.has(String(h)) || stated.has(String(h % 12 === 0 ? 12 : h % 12)) || stated.has(String(h + 12));
}

/** The first detail of the memory that no message of its conversation states, or undefined. */
export function unstatedDetail(memory: string, conversation: string[]): string | undefined {
  // "Node.js v20" names version 20.
  const text = memory.replace(/(?<![A-Za-z])v(?=\d)/g, ' ');
  const details = [...text.matchAll(DETAIL)].filter((m) => judged(text, m));
  // Most memories carry no number: the conversation is only read when one does.
  if (details.length === 0) return undefined;
  const stated = statedNumbers(conversation.join('\n'));
  for (const m of details) {
    const plain = m[0].replace(/,/g, '');
    const grouped = /^\d{1,3}(?:\.\d{3})+$/.test(plain) ? plain.replace(/\./g, '') : plain;
    if (stated.has(m[0]) || stated.has(plain) || stated.has(grouped) || stated.has(String(Number(plain)))) continue;
    // "LiveView 0.20" for 0.20.1: the version named to its minor.
    if (/[.:]/.test(plain) && [...stated].some((s) => s.startsWith(`${plain}.`))) continue;
    if (/^\d{1,2}:\d{2}$/.test(plain) && hourStated(plain, stated)) continue;
    return m[0];
  }
  return undefined;
}

/** A number that could only have been copied: not a single digit, a year or part of a date. */
function judged(memory: string, m: RegExpMatchArray): boolean {
  const plain = m[0].replace(/,/g, '');
  if (/^\d$/.test(plain) || /^(?:19|20)\d{2}$/.test(plain)) return false;
  const at = m.index ?? 0;
  const around = memory.slice(Math.max(0, at - 12), at + m[0].length + 12);
  return !MONTH.test(around) && !/\d{4}-\d{2}-\d{2}/.test(around);
}
