/**
 * Single-valued facts about the person themself, beside the tool choices of slots.ts: where they
 * live and whom they report to. A person has one home and one manager at a time, so a later
 * statement of another value replaces the earlier one even when the two share no word ("vivo en
 * Miraflores" → "me mudé a Barranco", "my manager is Rosa" → "I report to Martín now"). Only the
 * first person counts ("mi hermana vive en Madrid" is someone else's home); rule capture keeps
 * Spanish wording and writes English in the third person ("The user lives in ...", "they report to").
 * "Nos mudamos a jira" moves a team's tickets, not a family: the plural "mudarse" is left out.
 */
import { fold } from './spanish.js';

export interface PersonalSlot {
  slot: 'home' | 'manager';
  value: string;
  /** The statement says it changed ("me mudé", "relocated", "ahora reporto"). */
  change: boolean;
}

/** A word that names no place or person: an article, a possessive, "casa" ("vivo en casa de mis padres"). */
const NOT_A_NAME = String.raw`(?!(?:el|la|los|las|un|una|unos|unas|mi|mis|su|sus|casa|lo|otr[oa]s?|the|a|an|my|our|their|his|her|this|that|home|here|there)(?![\p{L}]))`;
const NAME = String.raw`${NOT_A_NAME}([\p{L}][\p{L}-]+)`;

const HOME: Array<{ re: RegExp; change: boolean }> = [
  {
    re: new RegExp(
      String.raw`(?<![\p{L}])(?:vivo|vivimos|the user lives|they live|i live|we live|(?:i'm|i am|we're|we are|the user is|they are) based) (?:ahora |now )?(?:en|in) ${NAME}`,
      'u',
    ),
    change: false,
  },
  {
    re: new RegExp(
      String.raw`(?<![\p{L}])(?:me mude|me he mudado|me trasladaron|nos trasladaron|me fui a vivir|nos fuimos a vivir|(?:i|we|they|the user) (?:have |has |'ve )?relocated) (?:a|en|to) ${NAME}`,
      'u',
    ),
    change: true,
  },
];

const TITLE = String.raw`(?:(?:el|la|the) )?(?:(?:ingenier[oa]|inge|dr|dra|doctor|doctora|licenciad[oa]|lic|mr|mrs|ms)\.? )?`;
const MANAGER: Array<{ re: RegExp; change: boolean }> = [
  {
    re: new RegExp(
      String.raw`(?<![\p{L}])(?:mi (?:jef[ae]|manager|lider|responsable)(?: direct[oa])? es|(?:my|our|their|the user's) (?:manager|boss|line manager|team lead|lead) is) ${TITLE}${NAME}`,
      'u',
    ),
    change: false,
  },
  {
    re: new RegExp(
      String.raw`(?<![\p{L}])(?:(?:le )?reporto|(?:i|we|they) report|the user reports) (?:directly |directamente )?(?:a|to) ${TITLE}${NAME}`,
      'u',
    ),
    change: false,
  },
];

/** Says the value is new: "ahora reporto a ...", "they report to Tomasz now", "after the reorg". */
const NOW = /(?<![\p{L}])(?:ahora|now|these days|since the reorg|after the reorg|from now on|desde (?:hoy|ahora))(?![\p{L}])/u;

/** A slot of this module: one value at a time, replaced only when the speaker says it changed. */
export function isPersonalSlot(slot: string): boolean {
  return slot === 'home' || slot === 'manager';
}

/** The person's home or manager a statement gives, if any. */
export function personalSlotOf(text: string): PersonalSlot | undefined {
  const folded = fold(text).replace(/[’]/g, "'");
  for (const [slot, patterns] of [
    ['home', HOME],
    ['manager', MANAGER],
  ] as const) {
    for (const { re, change } of patterns) {
      const m = re.exec(folded);
      if (m) return { slot, value: m[1]!, change: change || NOW.test(folded) };
    }
  }
  return undefined;
}
