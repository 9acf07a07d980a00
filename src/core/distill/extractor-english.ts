import type { AdmissionReason } from './admission.js';
import { hasCjk } from './signals.js';
import { hasDurableMarker } from './task-signals.js';
import { hasLesson } from './durable-evidence.js';
import { opensWithPresentVerb } from './tense.js';
import { isInFlightLabel } from './source-policy.js';

/**
 * Extractor output in English, in the shapes the gate's other detectors do not read: memories
 * without a subject ("Sent the price list to Léa.", "Is vegetarian."), with a person's first name
 * as the subject ("Julien wants an email to the supplier"), and plans, reported questions and
 * work of this task dressed as lasting statements ("From now on, the user wants this PR to target
 * release/2.4"). Mem0-style extractors write every memory without a subject, so those are read here
 * both ways: a standing fact is kept, a report of what was done is not.
 */

const WEEKDAY = String.raw`(?:mon|tues|wednes|thurs|fri|satur|sun)day`;

/**
 * A thing of the task at hand, named as this one: "this PR", "in this migration", "the helper being
 * written", "today's grocery list", "this Saturday's post". "Always" around it does not make it last.
 */
const THIS_TASK = new RegExp(
  String.raw`\b(?:this|the current) (?:pr|pull request|migration|change|changeset|function|method|helper|class|component|file|branch|ticket|commit|diff|patch|draft|script|query|test|run|step|fix|edit|version|prototype|experiment|shoot|build|list|table|page|message|reply|section|paragraph|slide|chart|plot)\b|\bbeing (?:written|built|edited|drafted|reviewed|debugged|worked on|refactored)\b|\b(?:today|tomorrow|tonight|yesterday)'s\b|\bthis ${WEEKDAY}'s\b`,
  'i',
);

/** A time ahead that a plan is pinned to: tomorrow, this weekend, next Tuesday, later this month. */
const AHEAD = new RegExp(
  String.raw`\b(?:tomorrow|tonight|later (?:today|this (?:week|month))|this (?:coming )?(?:weekend|week|month|afternoon|evening)|next (?:week|month|weekend|${WEEKDAY})|(?:on|this|by|until) ${WEEKDAY}(?!s)|in (?:a|two|three|\d+) (?:days|weeks)|due (?:on )?(?:${WEEKDAY}|tomorrow|next))\b`,
  'i',
);
/** What is going to happen, not what holds: will, is going to, plans to, arrives, is due. */
const FUTURE =
  /\b(?:will|is going to|are going to|plans? to|planning to|intends? to|should|needs? to|has to|have to|comes|come|arrives?|arriving|is due|are due|is scheduled|are scheduled|is booked|is (?:going|coming|flying|driving|leaving|visiting|meeting|starting|heading|travell?ing)|(?:has|have) an? (?:[\w-]+ ){0,2}(?:appointment|meeting|call|interview|exam|deadline|flight|check-?up|demo|presentation|match|game|party))\b|'ll\b|^(?:plans?|planning|intends?) to\b|\b(?:is|are|am) (?!(?:being|going|coming)\b)[a-z]{3,}ing\b|^[A-Z][a-z]{2,}ing\b/i;

/** "Asked what pace ...", "Margaret asked whether ...": a question of this conversation, reported. */
const REPORTED_QUESTION =
  /^(?:(?:[Tt]he )?[Uu]ser\s+|[A-Z][a-z]+(?: [A-Z][a-z]+)?\s+)?(?:[Aa]sk(?:ed|s)|[Ww]onder(?:ed|s)|[Ww]ant(?:ed|s) to know)\s+(?:what|whether|if|how|why|when|where|which|who|about)\b/;

/** Pointing into the conversation: "option B over option A", "the strollers discussed above", "the one before". */
const POINTING =
  /\b(?:option|alternative|variant) [A-D]\b|\b(?:as )?(?:discussed|mentioned|listed|shown|described|suggested) (?:above|earlier|before)\b|\bthe one (?:before|above)\b/;

/** The host's own instructions restated: "The assistant must use the provided tools ...". */
const HOST_RULES =
  /\b(?:provided tools|available tools|reveal (?:its|the|your) system prompt|fabricate|harmful requests|without asking the user (?:any )?further questions)\b|^the assistant is an? (?:[\w-]+ )?(?:assistant|agent|bot)\b/i;

/**
 * How many problems a run or a scan reported, or how that number moved: "has 5 credo issues",
 * "Gitleaks findings down from 1,092 to 277", "12 open lint warnings". A limit on them is a rule
 * ("at most 10 warnings", "zero warnings allowed").
 */
const PROBLEM_TALLY =
  /\b(?:reports?|reported|found|finds|shows?|lists?|flags?|flagged|has|have|had|with)\s+(?:only\s+|just\s+|about\s+|~)?\d+(?:,\d{3})*\s+(?:[\w-]+\s+){0,2}?(?:issues?|errors?|warnings?|findings?|failures?|vulnerabilit(?:y|ies)|violations?|offen[cs]es)\b|\b(?:issues?|errors?|warnings?|findings?|failures?|vulnerabilit(?:y|ies)|violations?)\s+(?:(?:went|are|were|is|was)\s+)?(?:down|up|dropped|fell|rose|reduced|cut)\s+(?:\w+\s+)?from\s+\d/i;
const PROBLEM_LIMIT =
  /\b(?:at most|no more than|fewer than|less than|more than|over|under|max(?:imum)?|min(?:imum)?|limit|allowed|budget|threshold|tolerates?|fails? (?:on|at|when)|blocks?)\b/i;
/** A thing of the project that is broken now: "transcript_components.ex fails to compile" (with no condition a lesson would give). */
const BROKEN_NOW =
  /\b(?:fails|fail) to (?:compile|build|start|boot|load|render|parse)\b|\b(?:does not|doesn't|do not|don't) (?:compile|build)\b/i;
const CONDITION = /\b(?:when|whenever|if|unless|on|with|without|under|after|before|because|since|due to|once)\b/i;
/** Free or used resources, read off a machine: "has 42 GB of free memory". */
const RESOURCE_READING = /\b\d+(?:\.\d+)?\s*(?:[KMGT]i?B|%)\s+(?:of\s+)?(?:free|available|left|used|in use)\b/;

/** Going through something now: "has been sore this week", "hasn't decided whether to raise prices". */
const FOR_NOW = /\bthis (?:week|morning|afternoon|evening)\b|\b(?:hasn't|has not|haven't|have not) (?:yet )?decided\b/i;

/** An artefact of the work put to use in the session: "Migration 2024_add_index was run on staging". */
const PUT_TO_USE =
  /\b(?:was|were) (?:run|applied|executed|rolled back|flashed|uploaded|published)\b(?!\s+(?:every|each|daily|weekly|nightly|automatically|by (?:cron|ci)))/i;

/** "Julien wants an email to the flour supplier": a deliverable for this conversation, wanted by name. */
const NAMED_WANT = new RegExp(
  String.raw`^(?:[A-Z][a-z]+|(?:the )?user)\s+(?:wants|wanted|needs|needed|would like|asked for|requested|is asking for)\s+(?:a|an|some)\s+(?:[\w'-]+\s+){0,4}?(?:email|message|letter|note|reply|post|caption|tweet|plan|checklist|template|function|snippet|query|config|script|patch|draft|summary|list|playlist|itinerary|recipe|translation|module|workflow|dashboard|report|spreadsheet|outline|quote|estimate|review|fix|pr)s?\b`,
  'i',
);

/** "Marcus asked for a rubric", "Tomás asked to regenerate the stubs", "Kenji wants help preparing questions". */
const NAMED_ASK =
  /^(?:(?:[Tt]he )?[Uu]ser\s+|[A-Z][a-z]+(?: (?:and )?[A-Z][a-z]+)?\s+)?[Aa]sked\s+(?:the (?:assistant|agent)\s+)?(?:for\b|to (?!be\b))|^(?:(?:[Tt]he )?[Uu]ser|[A-Z][a-z]+)\s+(?:wants|wanted|needs|needed) (?:help\b|to (?:send|write|draft|email|message|text|call|ask|tell)\b)/;

/** A reaction to the moment: "was unhappy with the first draft", "Upset about the one-star review". */
const REACTION =
  /\b(?:was|were) (?:really |very |quite )?(?:unhappy|annoyed|upset|frustrated|happy|pleased|thrilled|disappointed|relieved|surprised)\b|^(?:upset|annoyed|frustrated|pleased|relieved|worried|stressed|excited) (?:about|with|by|that)\b/i;

/** True for now: "is happening", "has 3 hours left", "last night", "until the renovation is done". */
const UNDER_WAY =
  /\b(?:is|are) (?:happening|thinking about|considering|weighing)\b|\b(?:has|have) (?:only )?(?:\d+|one|two|three|four|five|a few|several) (?:[\w-]+ ){0,4}left\b|\blast night\b|\buntil (?:the )?\d{1,2}(?:st|nd|rd|th)?\b|\b(?:is|are|'s) (?:currently )?on (?:vacation|holiday|leave|parental leave|sick leave)\b|\buntil (?:the|her|his|their|its) [\w ]{1,30} (?:is|are) (?:done|finished|over|complete|fixed)\b/i;

/** A report of a run or a reminder made: "buf generate failed with 'import ... not found'", "Reminder set for Friday". */
const RUN_REPORT =
  /\bfailed with ['"`]|^(?:an? |the )?reminders? (?:(?:is|was|has been) )?(?:set|created|added|scheduled)\b|#\d+ (?:failed|passed|succeeded|broke)\b/i;

/** Verbs of work on a thing of the session that say what was done whatever follows them ("Bumped version to 1.8.3"). */
const WORK_DONE =
  /^(?:Ported|Wired|Bumped|Rotated|Renamed|Refactored|Reverted|Rebased|Deployed|Redeployed|Released|Published|Pushed|Committed|Merged|Installed|Uninstalled|Reinstalled|Patched|Fixed|Debugged|Compared|Drafted|Booked|Ordered|Scheduled|Emailed|Texted|Reviewed|Tested|Regenerated|Restarted|Rebooted|Flashed|Edited|Removed|Deleted|Cleared|Renewed|Updated|Upgraded|Downgraded|Replaced|Cancell?ed|Paid|Reset|Resolved|Closed|Reopened|Filed|Submitted|Uploaded|Downloaded|Exported|Imported|Configured|Enabled|Disabled)\s/;

/** Talk around the work: thanks, greetings, jokes, venting. */
const REPORTED_CHATTER =
  /\b(?:said|says) (?:thanks|thank you|hi|hello|good morning|goodbye|bye|ok|okay)\b|\b(?:joked|joking|laughed|thanked|greeted|vented)\b|\bwanted to vent\b|\bfound (?:it|this|that|the \w+) (?:hilarious|funny)\b|^(?:good (?:morning|night|evening)|hi|hello|hey)\b/i;

/** The tally of a run: "12 specs fail after the upgrade", "3 tests are failing". */
const RUN_TALLY =
  /\b\d+\s+(?:specs?|tests?|checks?|jobs?|examples?|builds?)\s+(?:fail|failed|failing|pass|passed|passing|broke|are failing|are red)\b|^(?:the )?(?:test|spec|check)s? ['"`][^'"`]+['"`] (?:failed|passed|fails|passes)\b|\b(?:found|returned|reported|detected|flagged) (?:no|\d+|one|two|three|four|five|six|seven|eight|nine|ten) (?:[\w*.-]+ ){0,3}?(?:files?|results?|matches|issues?|errors?|warnings?|variants?|duplicates?|problems?|hits?)\b/i;

/**
 * A report of work without its doer: "Flashed the new firmware to the rev-C board.", "Sent the
 * revised price list to Léa." A life event keeps its verb ("Moved to Lisbon", "Graduated from ...")
 * or its year ("Opened the bakery in 2016").
 */
const DONE_FIRST =
  /^(?:[A-Z][a-z]+ed|Sent|Set|Ran|Made|Wrote|Built|Took|Gave|Put|Got|Bought|Found|Read|Did|Began|Brought|Told|Said|Kept)\s+(?:a|an|the|this|that|his|her|their|its|some|up|out|off|back|it|them)\b/;
const LIFE_EVENT =
  /^(?:Moved|Relocated|Emigrated|Immigrated|Married|Divorced|Graduated|Retired|Adopted|Studied|Trained|Worked|Served|Lived|Founded|Started|Opened|Joined|Quit|Left|Learned|Learnt|Switched|Migrated|Decided|Chose|Picked|Settled|Stopped|Gave up|Lost|Inherited|Survived|Completed|Finished|Passed|Qualified|Converted|Changed|Raised|Grew|Used)\b/;
const YEAR_OR_SPAN =
  /\b(?:19|20)\d{2}\b|\b(?:years?|decades?) (?:ago|earlier)\b|\bfor (?:\d+|two|three|four|five|ten|many) (?:years|decades)\b|\bsince\b/i;

/** How often a standing thing happens: "The bakery files VAT quarterly." */
const RECURRENCE = /\b(?:quarterly|annually|yearly|monthly|weekly|fortnightly|biweekly|daily|nightly)\b/i;
/** A convention a kind of artefact follows: "Commit messages follow Conventional Commits." */
const CONVENTION = /^[\w'-]+(?: [\w'-]+){0,3} (?:follow|follows|adhere to|adheres to) \S/i;

/**
 * What someone is about to do, without a subject or with "will"/"may ... later": "Will ask the
 * educator about adhesives", "Plans to switch the endpoint to keyset pagination", "Needs to book
 * the annual physical", "Jonas may add a make target later", "Helen will plant Charlotte in late March".
 */
const ABOUT_TO =
  /^(?:Will|Plans to|Planning to|Intends to|Going to|Is going to|Wants to try|Hopes to)\s|^(?:The user|The team|[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?:'s [a-z]+)? (?:will|is going to|plans to|is planning to|intends to) (?!always|never|only|not|keep|continue|stay|remain)|\b(?:will|may|might|could)\s+(?:[\w-]+\s+){1,6}?later\b|\bneeds? to (?:book|call|ring|buy|renew|pay|send|email|ask|get|pick up|order|cancel|schedule|finish|submit|refill)\b/;
/** A format asked for this deliverable: "Wants the training plan as a table for the fridge", "wants a reminder on Sunday". */
const AS_FORMAT =
  /\bwants? (?:the|this|that|her|his|their|my) [\w' -]{1,40}? as an? (?:[\w-]+ ){0,3}?(?:table|list|checklist|spreadsheet|pdf|doc|document|email|message)\b|\bwants? an? reminder\b/i;
/** A person's name and what they did to a thing of the session: "Jonas fixed the out-of-date Package.resolved". */
const NAMED_DONE =
  /^[A-Z][a-z]+ (?:fixed|bumped|deployed|merged|pushed|committed|reverted|patched|renamed|refactored|rebased|ran|restarted|rolled back) (?:the|a|an|this|his|her|their)\b/;

/**
 * A to-do written as a memory, opening on the verb: "Call Dr. Okafor's office Monday at 9 am",
 * "Remind Graham on 1 February to buy flares", "Apply the index migration to staging". A rule in
 * the same shape says how things are always done ("Use pnpm, not npm"), so any word of that kind
 * lets it through.
 */
const TO_DO =
  /^(?:Remind|Call|Phone|Ring|Email|Text|Message|Ask|Book|Buy|Order|Send|Draft|Pay|Cancel|Renew|Pick up|Apply|Delete|Rename|Deploy|Merge|Schedule|Follow up|Bring|Reply|Post|Submit|Print)(?![\w-])(?![^.]*\b(?:always|never|every|each|all|any|whenever|by default|from now on|instead of|rather than|not|don'?t|unless|before|after)\b)/;

/** A standing fact written without a subject, as mem0-style extractors do: "Is vegetarian.", "Lives in Leslieville". */
const SUBJECTLESS_FACT =
  /^(?:Is|Lives|Uses|Stores|Hosts|Self-hosts|Signs|Backs up|Syncs|Deploys|Builds|Ships|Develops|Works|Prefers|Likes|Loves|Enjoys|Dislikes|Hates|Has|Owns|Speaks|Drives|Plays|Avoids|Eats|Drinks|Runs|Follows|Formats|Writes|Reads|Keeps|Commutes|Wears|Walks|Cycles|Studies|Teaches|Manages|Maintains|Rents|Cooks|Sleeps|Wakes|Trains|Practices|Attends|Volunteers|Knows|Listens|Watches|Weighs|Codes|Doesn't|Does not|Can't|Cannot|Never|Always|Allergic to|Intolerant of|Based in|Born in|Married to|Vegetarian|Vegan|Pescatarian)\b|^(?:Wife|Husband|Partner|Son|Daughter|Mother|Mum|Mom|Father|Dad|Brother|Sister|Dog|Cat|Boss|Manager)'s name is\b/;

/**
 * What a memory itself says will not last, or is the next piece of work: "Wants temporary console
 * logging", "is temporarily on the old API", "The user's next work is a dashboard refactor", "Needs a
 * compile error fix in transcript_components.ex".
 */
const NOT_LASTING =
  /\btemporar(?:il)?y\b(?! (?:files?|director(?:y|ies)|folders?|tables?|credentials?|tokens?|data)\b)|\bnext (?:task|step|work|job|piece of work|thing to do)\b|^(?:The user |[A-Z][a-z]+ )?[Nn]eeds? (?:a |an |the )?(?:[\w.-]+ ){0,3}fix(?:es)? (?:in|for|to)\b/;
/** A run's result: "has 410 tests, all passing", "the build is green"; not what is asked of every run. */
const ALL_PASSING =
  /\ball (?:of them |\d+ )?(?:pass|passing|passed|green|succeed(?:ed|ing)?)\b|\b(?:build|suite|ci|pipeline) is (?:green|red|passing|failing)\b/i;
const ASKED_FOR = /\b(?:wants?|must|should|needs? to|has to|have to|before|after|only|required?|until)\b/i;
/** A version called the newest on the day it was said: "runs Git 2.52.0, the latest Git for Windows release". */
const LATEST_VERSION =
  /\d+(?:\.\d+)+[^.;]{0,30}\b(?:the|is) (?:latest|newest|most recent)\b|\b(?:latest|newest) (?:version|release) (?:is|was) \S*\d/i;

/**
 * Time told from the day of the conversation: "14 months ago", "recently", "next week", "this month".
 * A memory keeps it after that day is gone, so it is true only then; a change of standing it dates
 * ("switched to Zed last month") still counts.
 */
const RELATIVE_TIME =
  /\b(?:(?:\d+|a|an|one|a few|few|several|two|three|four|five|six|a couple of) (?:days?|weeks?|months?|years?) ago|recently|the other day|(?:last|next|this) (?:week|month|weekend))\b/i;
const DATED_CHANGE =
  /\b(?:switched|moved|started|joined|changed|took up|quit|stopped|left|retired|married|divorced|adopted|became|was diagnosed|bought|sold|graduated)\b/i;

/** Why an English memory an extractor wrote is junk, or undefined when none of these shapes fits. */
export function englishMemoryRejection(text: string): { reason: AdmissionReason; detail: string } | undefined {
  const t = text.trim();
  if (hasCjk(t)) return undefined;
  if (THIS_TASK.test(t)) return { reason: 'context-dependent', detail: 'this task' };
  if (REPORTED_QUESTION.test(t)) return { reason: 'question', detail: 'reported question' };
  if (REPORTED_CHATTER.test(t)) return { reason: 'chatter', detail: 'reported' };
  const durable = hasDurableMarker(t);
  if (RUN_TALLY.test(t) || RUN_REPORT.test(t) || (ALL_PASSING.test(t) && !ASKED_FOR.test(t) && !durable))
    return { reason: 'status-noise', detail: 'run tally' };
  if (PROBLEM_TALLY.test(t) && !PROBLEM_LIMIT.test(t) && !durable) return { reason: 'status-noise', detail: 'problem tally' };
  if (RESOURCE_READING.test(t) && !durable) return { reason: 'passing-state', detail: 'resource reading' };
  if (BROKEN_NOW.test(t) && !CONDITION.test(t) && !durable && !hasLesson(t)) return { reason: 'passing-state', detail: 'broken now' };
  if (isInFlightLabel(t)) return { reason: 'passing-state', detail: 'plan' };
  if (REACTION.test(t)) return { reason: 'chatter', detail: 'reaction' };
  if (POINTING.test(t)) return { reason: 'context-dependent', detail: 'points into the conversation' };
  if (HOST_RULES.test(t)) return { reason: 'restated-instruction', detail: 'host instructions' };
  if (!durable && (FOR_NOW.test(t) || UNDER_WAY.test(t))) return { reason: 'passing-state', detail: 'for now' };
  if (!durable && RELATIVE_TIME.test(t) && !DATED_CHANGE.test(t)) return { reason: 'passing-state', detail: 'dated by the conversation' };
  if (!durable && LATEST_VERSION.test(t)) return { reason: 'passing-state', detail: 'dated by the conversation' };
  if (NOT_LASTING.test(t)) return { reason: 'passing-state', detail: 'not lasting' };
  if (!durable && NAMED_ASK.test(t)) return { reason: 'task-request', detail: 'asked' };
  if (!durable && PUT_TO_USE.test(t) && !YEAR_OR_SPAN.test(t)) return { reason: 'session-event', detail: 'put to use' };
  if (!durable && AHEAD.test(t) && FUTURE.test(t)) return { reason: 'passing-state', detail: 'plan' };
  if (!durable && NAMED_WANT.test(t)) return { reason: 'task-request', detail: 'deliverable' };
  if (!durable && TO_DO.test(t)) return { reason: 'task-request', detail: 'to-do' };
  if (!durable && AS_FORMAT.test(t)) return { reason: 'task-request', detail: 'format for this deliverable' };
  if (!durable && ABOUT_TO.test(t)) return { reason: 'passing-state', detail: 'plan' };
  if (!durable && NAMED_DONE.test(t) && !YEAR_OR_SPAN.test(t) && !hasLesson(t)) return { reason: 'session-event', detail: 'work done' };
  if (!durable && (DONE_FIRST.test(t) || WORK_DONE.test(t)) && !LIFE_EVENT.test(t) && !YEAR_OR_SPAN.test(t) && !hasLesson(t))
    return { reason: 'session-event', detail: 'work done' };
  return undefined;
}

/**
 * A standing fact in the subjectless extractor style ("Uses pnpm and turbo"): the agent-only check
 * takes it as a fact of the setup the agent found, not as the agent's narration (admission.ts).
 */
export function isSubjectlessFact(text: string): boolean {
  const t = text.trim();
  return (SUBJECTLESS_FACT.test(t) || opensWithPresentVerb(t)) && !/[?]\s*$/.test(t) && !AHEAD.test(t);
}

/**
 * A standing fact the gate's fact words miss: the subjectless extractor style, whose verb stands
 * for the subject, a recurring duty, or a convention an artefact follows.
 */
export function readsAsStandingFact(text: string): boolean {
  const t = text.trim();
  return (
    (SUBJECTLESS_FACT.test(t) || RECURRENCE.test(t) || CONVENTION.test(t) || opensWithPresentVerb(t)) &&
    !/[?]\s*$/.test(t) &&
    !AHEAD.test(t)
  );
}

/** "Opened the bakery in 2016 after ten years in Geneva": a life event the extractor dated, not the agent's narration. */
export function isDatedLifeEvent(text: string): boolean {
  const t = text.trim();
  return (LIFE_EVENT.test(t) || DONE_FIRST.test(t)) && YEAR_OR_SPAN.test(t);
}

const PERSON_NOW = /\b(?:she|he|they|the user|the team|we)\s+now\s+[a-z]+s?\b/i;

/** "now" in a lesson or of a person's habit marks a lasting change, not a passing state. */
export function nowMarksLastingChange(text: string): boolean {
  return /\bnow\b/i.test(text) && (hasLesson(text) || PERSON_NOW.test(text));
}
