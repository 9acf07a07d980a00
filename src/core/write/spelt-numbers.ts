/**
 * Numbers written as words, read as digits, so that "two approvals" and "2 approvals" state one fact
 * and "two kids" → "three kids" states a change (changed-fact.ts). "one"/"uno"/"una" stand alone too
 * often for something else ("someone", "the one", "a") and "once" is English "one time", so they are
 * read only after a ten ("twenty-one", "treinta y uno").
 */

/** Words of values from `first` by `step`: `run('two three', 2)` is two → 2, three → 3. */
function run(words: string, first: number, step = 1): Array<[string, number]> {
  return words.split(' ').map((w, i) => [w, first + i * step]);
}

const UNITS: Record<string, number> = Object.fromEntries([
  ...run('two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen', 2),
  ...run('dos tres cuatro cinco seis siete ocho nueve diez', 2),
  ...run('doce trece catorce quince dieciseis diecisiete dieciocho diecinueve', 12),
]);
const TENS: Record<string, number> = Object.fromEntries([
  ...run('twenty thirty forty fifty sixty seventy eighty ninety', 20, 10),
  ...run('veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa', 20, 10),
]);
const UNIT_WORDS = Object.keys(UNITS).join('|');
const TEN_WORDS = Object.keys(TENS).join('|');
const NUMBER_WORD = new RegExp(String.raw`\b(${TEN_WORDS})(?:[- ](?:y\s+)?(one|uno|${UNIT_WORDS}))?\b|\b(${UNIT_WORDS})\b`, 'gi');

// Chinese numerals before a measure word: 两个孩子, 三点, 十五分钟 (周三 is a weekday, read as a time).
const HAN_NUMBER = /([两二三四五六七八九十]{1,3})(?=个|位|名|天|点|次|年|岁|月|周|号|只|条|本|台|家|种|小时|分钟|人|张|门)/g;
const HAN_DIGIT: Record<string, number> = { 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

function hanValue(numeral: string): number {
  if (!numeral.includes('十')) return HAN_DIGIT[numeral] ?? 0;
  const [tens, units] = numeral.split('十');
  return (HAN_DIGIT[tens!] ?? 1) * 10 + (HAN_DIGIT[units!] ?? 0);
}

/** The numbers a text spells out in English, Spanish or Chinese, as digits. */
export function speltNumbers(text: string): string[] {
  const words = [...text.matchAll(NUMBER_WORD)].map((m) =>
    m[1] ? TENS[m[1].toLowerCase()]! + (m[2] ? (UNITS[m[2].toLowerCase()] ?? 1) : 0) : UNITS[m[3]!.toLowerCase()]!,
  );
  const han = [...text.matchAll(HAN_NUMBER)].map((m) => hanValue(m[1]!));
  return [...words, ...han].map(String);
}

const NUMBER_WITH_UNIT = new RegExp(String.raw`^(?:\d+|${TEN_WORDS}|${UNIT_WORDS})(?:-\p{L}+)+$`, 'iu');

/** "4-day", "seven-year-old": a number and its unit, not an identifier. */
export function isNumberWithUnit(word: string): boolean {
  return NUMBER_WITH_UNIT.test(word);
}
