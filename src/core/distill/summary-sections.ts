import { splitUnits } from './sentences.js';

/**
 * How a compaction summary files what it says. Claude Code writes nine numbered sections, pi and
 * OpenClaw a "Context Checkpoint" with Goal / Constraints & Preferences / Progress / Key Decisions
 * / Next Steps / Critical Context, Codex and personal assistants headings of their own. Two kinds
 * of section matter to capture: those about the work in flight, whose "must"s are to-dos and are
 * skipped, and those that file lasting things (constraints, decisions, what to remember), where
 * the heading itself says a bare line ("Kube contexts: `stg-euw1` and `prd-euw1`.") is meant to last.
 */
export interface SummarySentence {
  text: string;
  /** Under a heading that files lasting things. */
  standing: boolean;
}

const IN_FLIGHT_SECTION =
  /^(?:\d+\.\s*)?(?:pending tasks?|current (?:work|state|task)|(?:optional )?next steps?|in progress|progress|remaining (?:work|tasks)|todo|to do|what needs to be done|current quote from conversation)\s*:?\s*$/i;
const SECTION = /^(?:\d+\.\s*)?[A-Z][\w &/-]{2,60}:?\s*$/;
/** The section titles of Claude Code and pi compaction summaries, however they are marked up. */
const KNOWN_SECTION =
  /^(?:\d+\.\s*)?(?:primary request and intent|key technical concepts|files and code sections|errors and fixes|problem solving|all user messages|pending tasks|current work|optional next step|goal|goals|constraints (?:&|and) preferences|progress|key decisions|next steps|critical context|analysis|summary)\s*:?\s*$/i;
/**
 * A heading over lasting things: constraints, preferences, decisions, conventions, what was
 * learned or must be remembered. Not one about open work ("open questions", "decisions pending").
 */
const STANDING_SECTION =
  /\b(?:constraints?|preferences?|decisions?|conventions?|house rules|ground rules|rules|critical context|important context|key facts|lessons?|learn(?:ed|t|ings)|gotchas?|caveats|remember|things to know|to know before|good to know|standing)\b/i;
const NOT_STANDING = /\b(?:open|pending|unresolved|undecided|unanswered|to make|to do|todo|next)\b|\?/i;

/** The prose sentences of a summary capture reads, without its in-flight sections. */
export function summarySentences(message: string): SummarySentence[] {
  const out: SummarySentence[] = [];
  let skipping = false;
  let standing = false;
  let sectionLevel = 0;
  let fileList: string | undefined;
  for (const unit of splitUnits(message)) {
    // pi appends the files it read and changed ("<read-files>\n...\n</read-files>"): a list, not prose.
    const opened = /^<(read-files|modified-files)>/.exec(unit.text);
    if (opened) fileList = opened[1];
    if (fileList !== undefined) {
      if (unit.text.includes(`</${fileList}>`)) fileList = undefined;
      continue;
    }
    // Only sections at the level that opened the current one (a "##" heading, "7. Pending Tasks")
    // switch; sub-headings and lead-ins inside a section do not.
    const numbered = unit.kind === 'prose' && ((SECTION.test(unit.text) && /^\d+\.\s/.test(unit.text)) || KNOWN_SECTION.test(unit.text));
    const level = unit.kind === 'heading' ? (unit.level ?? 1) : numbered ? 2 : 0;
    if (level > 0 && (!skipping || level <= sectionLevel)) {
      skipping = IN_FLIGHT_SECTION.test(unit.text);
      standing = !skipping && STANDING_SECTION.test(unit.text) && !NOT_STANDING.test(unit.text);
      sectionLevel = level;
      continue;
    }
    if (!skipping && unit.kind === 'prose') out.push({ text: unit.text, standing });
  }
  return out;
}
