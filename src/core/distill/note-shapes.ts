import type { AdmissionReason } from './admission.js';
import { withoutLead } from './signals.js';

/**
 * The short notes agents write into their memory files and terse extractors return ("ISP: Starlink",
 * "Custom themes dir: `~/.pi/agent/themes/`", "Run lint and tests before opening a PR"). They drop
 * the verb or the subject a sentence would have, so the sentence checks read them as fragments or as
 * requests for the task at hand (bench: `admission-real-notes.jsonl`, bench/data/README.md "Stop 45").
 */

/** "ISP: Starlink", "**Test command:** `pnpm test`": a label and its value. */
const LABELLED = /^(?:\*\*)?(?<label>[A-Za-z`][^:*\n]{1,40}?)(?:\*\*)?:(?:\*\*)?\s+(?<value>\S[^\n]*)$/;
/** A label that files the state of the work, not a lasting attribute: "Next step:", "Working branch:", "Test count:". */
const PASSING_LABEL =
  /\b(?:next|steps?|runs?|todo|to-do|status|progress|working|current(?:ly)?|today|now|done|results?|findings?|details|output|update|testing|count|total|tally|remaining|left|pending|wip|plan|goal|task|session|this|ready|suggested|proposed|requested|asked|(?<!known )(?:errors?|failures?|warnings?))\b/i;
/** A value that is itself a sentence ("Lesson: X caused Y"): the label is a heading, the value judged as it stands. */
const CLAUSE_VALUE = /\b(?:is|are|was|were|has|have|must|should|can|will|does|do)\b/i;
/** A value that is an instruction or a report ("snapshot the cache in onMutate", "cannot invoke X", "8 issues ready"). */
const ACTION_OR_TALLY =
  /^(?:[a-z]+\s+(?:the|a|an|some|all|every|each|this|that|these|those|it|them|its|their|your|my|our)\b|(?:can(?:no|')t|won't|doesn't|don't|didn't|never|not)\b|\d[\d,.]*\s+[a-z]+s\b)/;

/** The rejections a labelled note is read again after: the checks that miss the dropped "is". */
const NOTE_MISREAD: ReadonlySet<AdmissionReason> = new Set(['fragment', 'no-content', 'too-short', 'status-noise', 'task-request']);

/** The agent-only check's refusals the missing verb explains (grounding: "only the agent said it: fragment"). */
const AGENT_ONLY_MISREAD = /^only the agent said it: (?:fragment|no-content)$/;

/**
 * The sentence a labelled note stands for ("ISP: Starlink" → "ISP is Starlink"), when the gate's
 * refusal of the note is one the missing verb explains; else undefined.
 */
export function labelledNoteSentence(text: string, refusal: { reason?: AdmissionReason; detail?: string }): string | undefined {
  const { reason, detail } = refusal;
  const misread = reason !== undefined && (NOTE_MISREAD.has(reason) || (reason === 'ungrounded' && AGENT_ONLY_MISREAD.test(detail ?? '')));
  if (!misread) return undefined;
  const m = LABELLED.exec(text.trim());
  const label = m?.groups?.label?.trim();
  const value = m?.groups?.value?.trim();
  if (!label || !value || PASSING_LABEL.test(label) || label.split(/\s+/).length > 6) return undefined;
  if ((CLAUSE_VALUE.test(value) && !/[`/\\]/.test(value)) || ACTION_OR_TALLY.test(value)) return undefined;
  return `${label} is ${value}`;
}

/**
 * An imperative note tied to a recurring moment of the work ("Run lint before opening a PR", "Squash
 * before merging"): a standing rule of the project, not a request for the task at hand ("before
 * opening the PR" is that one PR).
 */
const RECURRING_MOMENT =
  /\b(?:before|after|when(?:ever)?)\s+(?:opening|creating|merging|pushing|committing|releasing|publishing|deploying|shipping|tagging|submitting|raising|starting|finishing|closing)(?:\s+(?:a|an|any|every|each|new)\b|\s+(?:to|on|from)\s+[\w-]+|\s*(?:[.,;:)]|$))/i;

/** "Run the agent from source: `npx tsx src/cli.ts`": how to do a thing, with the command to do it. */
const RECIPE = /^[A-Z][a-z]+\b[^:`\n]{3,80}:\s*`[^`\n]{3,}`[^\n]{0,80}$/;

export function isStandingInstruction(text: string): boolean {
  const t = text.trim();
  return RECURRING_MOMENT.test(t) || RECIPE.test(t);
}

/** "Also runs a CachyOS machine": a connective tying a note to the one before it in a list. */
const CONNECTIVE = /^(?:also|additionally|plus|and)\b,?\s+(?=\S)/i;

export function withoutConnective(text: string): string {
  return withoutLead(text, CONNECTIVE);
}
