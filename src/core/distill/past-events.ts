import { hasCjk } from './signals.js';
import { hasDurableMarker } from './task-signals.js';
import { mainClauseTense } from './tense.js';

/** What keeps a past-tense statement worth remembering: a decision, a change of habit, a cause or a limit. */
const PAST_WORTH =
  /\b(?:decided|chose|picked|selected|went with|standardi[sz]ed|agreed|settled|opted|switched|migrated|moved to|replaced|adopted|because|since|so that|so|turned out|caused|causes|means|instead|no longer|not|never|always|must|should|only|originally|used to|once)\b|\bby\s+\w+ing\b|\b(?:fixed|solved|resolved|prevented|avoided)\s+(?:it|this|that|the (?:issue|problem|error|crash|failure))\b/i;
/**
 * A past passive that leaves a setting behind ("The workflows were made non-blocking", "The key was pinned to
 * v2", "Archives/ was excluded from the scan", "the job timeout was raised to 45 min") states how things are now
 * configured.
 */
const CONFIGURED =
  /\b(?:was|were|got|has been|have been)\s+(?:also\s+)?(?:made|set|configured|renamed|pinned|limited|restricted|locked|disabled|enabled|excluded|allowlisted|whitelisted|blocklisted|turned (?:on|off)|marked|kept|raised|lowered|increased|decreased|reduced|extended|shortened|capped)\b/i;
/**
 * A participle of where or how a thing is kept, with no auxiliary, in a note ("GPG signing key stored in
 * 1Password", "spotter.css gitignored but tracked"): the note drops "is", it tells no event. Verbs of an
 * act done once ("saved", "added", "moved") are left out: "Guide saved to md" is the agent's report.
 */
const KEPT_STATE =
  /^(?:[^,;:.]|\.(?=\S)){2,60}?\s(?<!\b(?:was|were|is|are|been|be|got|has|have|had)\s)(?:stored|kept|located|hosted|housed|mounted|vendored|gitignored|git-ignored|tracked|untracked|checked in|pinned|defined|declared|served|backed up)\b/i;
/** A dated event ("shipped on 2024-05-02", "in March 2025") is history the extractor placed in time on purpose. */
const CALENDAR_DATE =
  /\b\d{4}-\d{2}-\d{2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\bin\s+(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\s+)?(?:19|20)\d{2}\b/i;
/** Advice after the report ("…; use the lock table"): the event is the reason for a lesson. */
const ADVICE_AFTER = /[;:]\s*(?:use|avoid|run|set|keep|add|check|make sure|always|never|don't|do not|prefer|pin|disable|enable)\b/i;

/**
 * An extractor's report of something that happened to a thing of the work, in the past tense: "Gitleaks
 * 8.30.0 was installed via Homebrew", "Twenty-five path references were rewritten", "The Explore agent read
 * X". A person's past ("Caroline went to a support group on May 7", "The user's laptop was stolen") is a
 * life event a memory keeps, so a subject that names a person is left to the event rules that know the
 * conversation's verbs (asked, said, approved ...).
 */
export function isPastWorkEvent(text: string): boolean {
  const t = text.trim();
  if (hasCjk(t) || hasDurableMarker(t) || PAST_WORTH.test(t) || CALENDAR_DATE.test(t) || ADVICE_AFTER.test(t) || CONFIGURED.test(t))
    return false;
  // "Running vitest with threads crashed LanceDB": an action as the subject is a cause, and the sentence a lesson.
  if (/^\w+ing\b/i.test(t)) return false;
  if (KEPT_STATE.test(t)) return false;
  const { tense, personal } = mainClauseTense(t);
  return tense === 'past' && !personal;
}
