/**
 * English user sentences that sound like standing statements but belong to the moment of the chat:
 * a choice among what the agent just offered, a thing the last message named, the work to turn to
 * worded as a rule, a confirm tag, leaving the chat, a complaint that something is down again.
 * Read on text with informal spellings folded (english-user.ts `foldInformal`).
 */
import { firstVeto, type Veto, type VetoTable } from './veto.js';

/**
 * A choice among what the agent just offered: "i prefer the version u wrote first", "lets go with
 * the blue one", "we decided to go with option b", "lets use the approach from before".
 */
const OFFERED_CHOICE =
  /\bthe (?:\w+\s+)?(?:one|ones|version|option|draft|variant|approach|suggestion|layout|design|wording|idea) (?:you|u) (?:wrote|suggested|gave|sent|showed|made|proposed|came up with)\b|\bthe (?:\w+\s+)?(?:approach|version|option|draft|idea|plan) from (?:before|earlier|above|last time)\b|\b(?:go|going|went|stick|use|take|pick|choose|like|prefer|want)\s+(?:with\s+)?the\s+(?:first|second|third|last|other|previous|shorter|longer|simpler|cleaner|new|old|blue|red|green|black|white|grey|gray|yellow|pink|purple|orange|top|bottom|left|right|cheaper|bigger|smaller)\s+(?:one|ones|version|option|draft)\b|\boption\s+(?:[a-e]|[1-5]|one|two|three)\b(?!\s*(?:is|are|means)\b)|\b(?:prefer|like|want|go with|pick|take)\b[^.,]{0,50}\bthe [\w-]+(?: [\w-]+)? one\b(?!\s+(?:of|who|that|which|where)\b)/i;
/** "that price is for both nights": a thing named in the last message, as the subject. */
const THAT_SUBJECT = /^(?:that|those)\s+(?!(?:is|was|are|were|'s)\b)\w+\s+(?:is|are|was|were|'s)\b/i;
/** Work to turn to now, worded like a rule: "from now on lets focus on the pagination bug". */
const WORK_FOCUS =
  /\b(?:from now on|going forward|for now|for the rest of (?:the|this) (?:day|session|week))\b,?\s*(?:let'?s|lets|we(?:'ll| will| should)?|i want (?:us )?to|can we)\s+(?:just\s+|only\s+)?(?:focus|concentrate|work|plan|look|start|tackle|get|move on|continue|dig|finish|sort|clear|clean up|fix)\b/i;
/** Something that happened again, with a sigh: "staging is down again, great", "flight got delayed again". */
const AGAIN =
  /\b(?:is|are|was|were|got|gets|'s|'re|been|went)\s+(?:\w+\s+)?(?:down|delayed|late|broken|crashed|crashing|stuck|failing|failed|out|cancelled|canceled|acting up|playing up|at it|flooded|leaking|lost|slow|off|offline|jammed|red|blocked|clogged|empty|missing)\b[^.!]{0,30}\bagain\b|\b(?:barked|crashed|froze|died|flooded|leaked|broke|failed)\b[^.!]{0,30}\bagain\b/i;
/** A tag asking to confirm: "ok so the total is 340 right", "that's tuesday, correct". */
const CONFIRM_TAG = /,\s*(?:right|correct|innit|isn't it|no|yeah)\s*[.!]*$|^(?:ok(?:ay)?[,\s]+)?so\b.*\bright\s*[.!]*$/i;
/** Leaving the chat: "heading out now, back in an hour", "brb". */
const LEAVING =
  /\b(?:heading|going|popping|nipping|stepping) (?:out|off|away|home|to bed|to sleep)\b|\bback in (?:an? |\d+ )?(?:hour|hr|min|mins|minutes|bit|sec)\b|\b(?:brb|gtg|afk)\b/i;
/** A sigh at a recurring annoyance, not a rule: "always the same thing with xcode updates", "always rains when i plan a bbq". */
const ALWAYS_SIGH =
  /^(?:(?:ugh|lol|man|classic)[,\s]+)*always (?:the same|so|such)\b|^(?:(?:ugh|lol|man|classic)[,\s]+)*always [a-z]*[^\Wsiu]s when\b/i;
/** Checked in this order. */
const TALK: VetoTable = [
  [OFFERED_CHOICE, { reason: 'context-dependent', detail: 'a choice among what was offered' }],
  [THAT_SUBJECT, { reason: 'context-dependent', detail: 'points back' }],
  [WORK_FOCUS, { reason: 'task-request', detail: 'work to turn to' }],
  [CONFIRM_TAG, { reason: 'question', detail: 'asks to confirm' }],
  [LEAVING, { reason: 'chatter', detail: 'leaving' }],
  [ALWAYS_SIGH, { reason: 'chatter', detail: 'sigh' }],
  [{ test: (t) => AGAIN.test(t) && !/\bnever\b/i.test(t) }, { reason: 'passing-state', detail: 'again' }],
];

/** Why `t` is talk of the moment, or undefined. */
export function talkOfTheMoment(t: string): Veto | undefined {
  return firstVeto(t, TALK);
}
