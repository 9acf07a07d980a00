import { HOUSEHOLD_SUBJECT_SOURCE } from './signals.js';
import { isVerbless } from './structure-signals.js';

/**
 * A plain English statement no trigger phrase introduced, which rule capture may still learn ("the
 * staging cluster has three nodes", "internal service calls use grpc"). What people type without a
 * trigger is mostly talk about the moment, so a sentence only counts when none of these holds.
 */

/** Addressed to the assistant: "make sure you ...", "if you're recommending books". */
const ADDRESSED = /\?|\b(?:you|you're|you'll|you've|you'd|your|yours|u|ur)\b/i;
/** A lead-in or vocative before the statement: "my dude, ...", "ok so ...". */
const LEAD_IN =
  /^(?:(?:(?:my|oh)\s+)?(?:dude|man|bro|mate|buddy|pal|god)|ok|okay|so|and|but|btw|fyi|also|oh|well|hey|yeah|ah|lol)\b[,!.\s]+/i;
/** "this repo", "this laptop": the place the fact belongs to, not a pointer. */
const THIS_PLACE =
  /\bthis (?:project|repo|repository|codebase|app|application|service|cluster|machine|device|computer|laptop|desktop|box|pc|network|server|host|workspace|team|company|monorepo|house|household|family|city)\b/gi;
/**
 * Points into the conversation or back at the last sentence: "this exploded when ...", "remove that,
 * ...", "we deploy it after lunch", "she loves orchids" (who?), "don't put work stuff there".
 */
const POINTS_IN =
  /^(?:that|here|there|there's|he|she|they|his|her|their|its)\b|^[\w-]+\s+that\b|\b(?:this|these|those|it|it's|them)\b|\b(?:there|here)\s*[.!]*$/i;
/** No subject: "rethinking my whole week", "remind me a week before", "with my two kids in tow". "Linting is ..." has one. */
const NO_SUBJECT =
  /^[a-z]+ing\b(?!\s+(?:is|are|was|were|has|runs|uses|goes|happens)\b)|^(?:remind|tell|ask|send|show|give|make|let|help|find|check|write|add|put|book|call|get|go|try|look|see|fix|use|keep|pick|plan|note|list|suggest|recommend|with|without)\b/i;
/** A one-off told for the days around it: "a dentist appointment next friday", "the report ready by 5pm". */
const ONE_OFF =
  /\b(?:(?:next|this|last|on) (?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|tomorrow|tonight|yesterday|later today|(?:ready|done|finished|back|home|free|there) (?:by|at|before|until|after) \d{1,2}(?::\d\d)?\s*(?:am|pm)?)\b/i;
/** An incident of the day: "we have a bug where the cart empties", "seeing two errors in prod". */
const INCIDENT =
  /\b(?:have|has|got|found|hit|hitting|seeing|see)\s+(?:a|an|two|three|some|another|\d+)\s+(?:\w+\s+)?(?:bugs?|issues?|problems?|errors?|outages?|incidents?|crash(?:es)?|regressions?)\b/i;
/** A passing opinion: "the weather is nice", "the new office is so cool". */
const PASSING_OPINION =
  /\b(?:is|are|was|were)\s+(?:so\s+|really\s+|very\s+|pretty\s+|super\s+)?(?:nice|great|good|bad|awful|terrible|lovely|beautiful|cool|awesome|amazing|weird|annoying|fine|ok|okay|horrible|brilliant|perfect|fun|boring|hot|cold|sunny|rainy|crazy|insane|wild)\b[.!\s]*$/i;

/** The household's people and pets as the subject: their verb is often one the verb list lacks ("drink", "see"). */
const HOUSEHOLD_SUBJECT = new RegExp(HOUSEHOLD_SUBJECT_SOURCE + '[a-z]{3,}', 'i');

export function isPlainStatement(sentence: string): boolean {
  const t = sentence.trim();
  if (ADDRESSED.test(t)) return false;
  const bare = t.replace(LEAD_IN, '').replace(THIS_PLACE, 'the place');
  if (POINTS_IN.test(bare) || NO_SUBJECT.test(bare) || ONE_OFF.test(t) || INCIDENT.test(t) || PASSING_OPINION.test(t)) return false;
  // "i'm in vs code all day" has its verb in the contraction; "the kids drink whole milk" one the short list lacks.
  return HOUSEHOLD_SUBJECT.test(bare) || !isVerbless(t.replace(/'m\b/gi, ' am').replace(/'re\b/gi, ' are').replace(/'s\b/gi, ' is'));
}
