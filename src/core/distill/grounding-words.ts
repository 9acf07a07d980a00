import { fold } from './spanish.js';

/** Words of a message or memory as the evidence checks (grounding.ts, corrected-values.ts) compare them. */

/** A whole-word pattern: no letter or digit on either side (works for accents; CJK lists use plain regexes). */
export const word = (source: string, flags = 'iu'): RegExp => new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${source})(?![\p{L}\p{N}])`, flags);

/** Swearing at the work. A user's message made of it is frustration; beside a rule it says the rule lasts. */
export const PROFANITY_WORDS = String.raw`fuck\w*|shit\w*|wtf|w\.t\.f|omfg|damn\w*|crap|bullshit|stupid|idiot\w*`;

export const STOP = new Set(
  'the and for with that this these those from into user users their they them has have had was were are not but you your our his her its she him who what when where which will would should could can also just then than very more most some such only about over after before because while there here still each been being does did done use uses used using wants want likes like prefers prefer el la los las que del por para con una uno unos unas como pero mas sus suyo usuario usuaria tiene tienen'.split(
    ' ',
  ),
);

/** Content words (3+ letters, or any CJK run, or a number) of a text, accent-folded. */
export function contentWords(text: string): Set<string> {
  const words = fold(text).match(/[\p{L}\p{N}][\p{L}\p{N}'._-]*[\p{L}\p{N}]|\p{N}/gu) ?? [];
  return new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)));
}

// A day stands alone: "Mon3dita#2024" (a password) names no Monday.
const DAY_EN =
  /(?<![\p{L}\p{N}])(mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:rs?(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)s?(?![\p{L}\p{N}])/giu;
const DAY_ES = /(?<![\p{L}\p{N}])(lunes|martes|miercoles|jueves|viernes|sabado|domingo)s?(?![\p{L}\p{N}])/giu;
const DAY_ZH = /(?:周|星期|礼拜)([一二三四五六日天])/gu;
const ES_DAY: Record<string, string> = {
  lunes: 'mon',
  martes: 'tue',
  miercoles: 'wed',
  jueves: 'thu',
  viernes: 'fri',
  sabado: 'sat',
  domingo: 'sun',
};
const ZH_DAY: Record<string, string> = { 一: 'mon', 二: 'tue', 三: 'wed', 四: 'thu', 五: 'fri', 六: 'sat', 日: 'sun', 天: 'sun' };

/** The days of the week a text names, as mon … sun, whatever the language or the abbreviation ("tues", "jueves", "周三"). */
export function weekdays(text: string): Set<string> {
  const folded = fold(text);
  const days = [
    ...[...folded.matchAll(DAY_EN)].map((m) => m[1]!.slice(0, 3)),
    ...[...folded.matchAll(DAY_ES)].map((m) => ES_DAY[m[1]!]!),
    ...[...text.matchAll(DAY_ZH)].map((m) => ZH_DAY[m[1]!]!),
  ];
  return new Set(days);
}

/** Whether a word is a day of the week and nothing more ("weds", "sábados", "周三"; not "周三下午去合唱团"). */
export function isWeekday(word: string): boolean {
  const folded = fold(word);
  const whole = (re: RegExp) => [...folded.matchAll(re)].some((m) => m[0] === folded);
  return whole(DAY_EN) || whole(DAY_ES) || [...word.matchAll(DAY_ZH)].some((m) => m[0] === word);
}

/** A word said as the value it stands for: a day of the week is the same day however it is written. */
export function canonicalValue(value: string): string {
  const [day] = isWeekday(value) ? weekdays(value) : [];
  return day ?? value;
}

/** Content words and the days named, each day as mon … sun. */
export function valueWords(text: string): Set<string> {
  return new Set([...contentWords(text), ...weekdays(text)]);
}

/**
 * A named artifact of a project or a machine: a path or file, a code identifier (snake_case,
 * camelCase, a dotted member), a version, a flag or setting, an @name, a colour code or a code span.
 * "Blocky on slate listens on port 5335" names none; "getInitials returns ??" does.
 */
const ARTIFACT = new RegExp(
  [
    // A path: rooted (/etc/hosts, ~/Documents, C:\Users), of three parts (src/app/api), or of two with a
    // mark of a name in them (M-Thisness/M-Claude, docs/theme.md); not "and/or", "24/7", "km/h".
    String.raw`(?<![\p{L}\p{N}])(?:~|\.{1,2}|[A-Za-z]:)?[/\\][\p{L}\p{N}_.<>-]+|[\p{L}\p{N}_.<>:~-]+(?:[/\\][\p{L}\p{N}_.<>:-]+){2,}`,
    String.raw`[\p{L}\p{N}~]*[._-][\p{L}\p{N}_.~-]*[/\\][\p{L}\p{N}]|[\p{L}\p{N}]+[/\\][\p{L}\p{N}]+[._-][\p{L}\p{N}]`,
    String.raw`\b[\w-]+\.(?:[a-z]{1,5})\b(?![\p{L}])(?<!\b(?:e\.g|i\.e|etc|vs|no|p\.m|a\.m)\b)`, // settings.json, gpg.exe
    String.raw`\b[a-z]\w+\.[a-z]\w+\b`, // stats.totalMembers, radius.button (not "e.g")
    String.raw`\b\w+_\w+\b`, // snake_case
    String.raw`\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*`, // getInitials, MapSet
    String.raw`\b[A-Za-z]+\d+[A-Za-z\d]*\b|\bv\d+(?:\.\d+)+`, // MSYS2, Win32, Float64, v0.8.0
    String.raw`(?<![\w])[@#][\w-]+|--[a-z][\w-]*|\b\w+=\S+|\x60[^\x60]+\x60`, // @Observable, #303030, --no-verify, key=value, a code span
  ].join('|'),
  'u',
);

export const namesAnArtifact = (text: string): boolean => ARTIFACT.test(text);
