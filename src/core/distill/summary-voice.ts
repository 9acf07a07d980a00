/**
 * How a compaction summary tells what it learned about a person: in the third person, with their
 * name ("Mei wants every README snippet type-checked", "Tomasz preferred running node directly",
 * "She hates automated Sunday summaries", "User (Leo) does not want to raise the limit"). The
 * general summary checks look for rule words and standing-fact frames and miss these; the
 * extractor-output checks (task requests, events, passing states) still run before this.
 */
const NAME = String.raw`[A-Z][a-zà-öø-ÿ]+(?:[ -][A-Z][a-zà-öø-ÿ]+)?`;
const PERSON = String.raw`(?:(?:[Tt]he )?[Uu]ser(?:\s*\(${NAME}\))?(?:,\s*${NAME},)?|[Ss]he|[Hh]e|${NAME})`;
const HOW = String.raw`(?:(?:also|still|usually|always|never|only|really|strongly|generally|explicitly|repeatedly)\s+)?`;
/** Verbs of what a person lastingly likes, wants, insists on or is: not of what they did this session. */
const STANDING = String.raw`(?:prefers|preferred|wants|likes|loves|hates|dislikes|enjoys|keeps|can'?t stand|cannot stand|would rather|'d rather|does(?:n'?t| not) (?:want|like|use|eat|drink|drive|trust|allow)|insists|insisted|is allergic|has an? (?:[\w-]+ ){0,2}(?:allergy|intolerance)|is (?:vegetarian|vegan|lactose intolerant|colou?r-?blind|left-handed|diabetic)|asked (?:that|not to)|required that|speaks|lives (?:in|with|near)|works (?:as|at|for|from)|is (?:${NAME},\s+)?an? (?:[\w-]+\s+){0,3}(?:engineer|developer|programmer|designer|manager|translator|nurse|teacher|student|founder|scientist|analyst|consultant|freelancer|architect|researcher|writer|doctor|lawyer|accountant))\b`;
/** "She pushes and opens PRs herself", "Mei writes commit messages herself": who does what, for good. */
const OWN_WORK = String.raw`(?:pushes|checks|writes|reviews|merges|releases|deploys|books|pays|handles|does)\b[^.;]{0,80}\b(?:herself|himself|themselves)\b`;

const PERSON_STATEMENT = new RegExp(String.raw`^${PERSON}(?:\s+|(?='d\b))${HOW}(?:${STANDING}|${OWN_WORK})`);

/**
 * Whether a summary sentence states a person's standing preference, trait or way of working, in
 * any of its clauses ("Money: she keeps ...", "Second reminder only on Friday: Ines doesn't want ...").
 */
export function isPersonStatement(text: string): boolean {
  return text
    .trim()
    .split(/[;:]\s+|\s[—–]\s/)
    .some((clause) => PERSON_STATEMENT.test(clause.trim()) && !THIS_TASK.test(clause));
}

/** "Tomasz wants a tracking issue, not fixes in this PR": a want about the task at hand. */
const THIS_TASK =
  /\b(?:this|the current) (?:pr|pull request|trip|task|ticket|branch|session|week|time|release|change|migration)\b|\bfor now\b/i;

/**
 * A unit that is only the user's words in quotes ("All user messages" lists them; 'Aisha: "all
 * concurrent index migrations need atomic = False"'): judged as the user's own message.
 */
const QUOTED_UNIT = new RegExp(
  String.raw`^(?:(?:Also|User correction)\s*[:,]\s*)?(?:${PERSON}(?:\s+(?:said|says|asked|wrote|added|insisted|replied))?\s*:\s*)?["“]([^"”]{8,400})["”]?\s*[.;]?$`,
);

/** The quoted words of a unit made only of a quote, else undefined. */
export function quotedWords(text: string): string | undefined {
  return QUOTED_UNIT.exec(text.trim())?.[1]?.trim();
}
