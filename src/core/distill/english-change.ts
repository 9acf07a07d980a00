/**
 * How people tell an agent that something changed for good, beyond "I switched to X" (english-user.ts
 * has the first forms): the new value with a "now" ("everything runs on vitest now", "fyi: pnpm
 * now"), what was dropped ("we killed the develop branch", "we're finally off heroku", "the 1password
 * vault is deleted"), a setting moved ("we changed on-call to 2-week shifts", "bumped everything to
 * node 22") or a swap ("swapped eslint and prettier for biome", "running colima instead").
 * Each form needs a change word and a subject that is the user's world, never "it" or "this": "it
 * works now" and "the test passes now" are how a task is going, not a change to remember.
 */

const LEAD = String.raw`(?:^|[,;:—–]\s*)(?:(?:ok|so|also|and|oh|fyi|btw|heads up|update|quick update|ps|yeah|right|well)\s*[:,!-]?\s+)*`;
/** A thing the user owns or runs, as a subject: not "it", "this", "that", "which". */
const OWNER_SUBJECT = String.raw`(?:we|i|everything|all|both|the team|they|she|he|the kids|my \w+|our \w+)`;
const DROP_VERB =
  'killed|scrapped|retired|deleted|archived|uninstalled|cancell?ed|ditched|dropped|dumped|sold|traded in|gave up|quit|shut down|shut off|turned off|sunset(?:ted)?|deprecated|decommissioned|got rid of|given up(?: on)?|removed';
const MOVE_VERB =
  'changed|switched|moved|migrated|bumped|upgraded|downgraded|shifted|pushed|pulled|brought|converted|ported|swapped|merged|went';

/** What a task, not a standing change, does "now" to: "i get it now", "we have a problem now". */
const TASK_OBJECT = String.raw`(?:it|that|this|them|me|you|him|her|a problem|an issue|a question|an? (?:idea|bug|error|answer|winner|fix)|the (?:error|bug|problem|issue|idea|point))\b`;

/** "now" closing its clause: "..., so", "... and", a full stop. */
const NOW_AT_CLAUSE_END = String.raw`now\b(?=\s*(?:[.!,;]|$)|\s+(?:so|and|but|because|cos|since|which|though|too)\b)`;
const LEAD_WORDS = String.raw`(?:(?:so|and|ok|fyi|btw|also|oh)[,\s]+)*`;
/** A pronoun and a verb of the present that is not a verb of seeing, knowing or wanting. */
const PRONOUN_VERB = String.raw`(?:i|we|they|he|she)\s+(?:\w+ly\s+|only\s+|just\s+|all\s+)?(?!(?:(?:see|get|know|understand|think|need|want|have|feel|guess|mean|hope|try|love|hate|like|agree|remember|forget|say)s?|can|could|should|must|will|would|am|are|is|tried|got|had|did|do|does|said|told|made|found|fixed|merged|pushed|ran|broke|lost)\b)[a-z]{3,}`;
/** A thing of the user's world and its verb, not a task's ("the fix works", "it loads"). */
const NOUN_VERB = String.raw`(?:(?:the|our|my|his|her|their)\s+[\w.-]+(?:\s+[\w.-]+){0,2}?|(?!(?:it|this|that|there|which|what|everything|nothing|something|the|a|an|my|our|his|her|their)\b)[\w.-]+)\s+(?:\w+ly\s+)?(?!(?:(?:work|pass|fail|compile|load|show|build|break|crash|look|seem|feel|get|need|want|say|happen|exist|return|throw|error|hang|render|boot|know|love|hate|like|agree|remember|forget|understand|see|think)(?:s|es)?|is|was|are|were|has|have|does|do)\b)[a-z]{3,}`;
/** What follows is no task's object or state: not "it", "a problem", "fine again". */
const NOT_TASK_GAP = String.raw`(?!${TASK_OBJECT})(?![^.?;,]*\b(?:fine|ok|okay|works?|working|again|fixed|broken|better|worse|green|red|passing|failing|faster|slower|properly|correctly)\b)`;

const FORMS: RegExp[] = [
  // "fyi: pnpm now", "heads up - trunk based now"
  /^(?:(?:ok|so|also|oh)[,\s]+)?(?:fyi|btw|heads up|update|quick update|ps)\s*[:,!-]?\s+(?!\w+ing\b)[\w.+#/-]+(?:\s+(?!\w+ing\b)[\w.+#/-]+){0,2}\s+now[.!]*$/i,
  // "we're finally off heroku", "i'm off caffeine"
  /\b(?:we're|we are|i'm|i am)\s+(?:finally\s+|now\s+|fully\s+|completely\s+|officially\s+)?off\s+(?:of\s+)?[\w.+#-]{2,}/i,
  // "we're on Doppler for secrets now", "i'm doing italian now"
  /\b(?:we're|we are|i'm|i am)\s+(?:\w+\s+)?(?:on|with|using|doing|running|in|at)\s+[^.?;]{1,50}?\s+now\b/i,
  // "everything runs on vitest now", "she does gymnastics on saturday mornings now", "we drive a Kia now"
  new RegExp(
    String.raw`\b${OWNER_SUBJECT}\s+(?:\w+ly\s+)?(?:runs?|goes|go|lives?|handles?|uses?|drives?|does|do|works?|eats?|drinks?|rides?|takes?|gets?|has|have|pays?|sees?|trains?|plays?|starts?|finish(?:es)?)\s+(?!${TASK_OBJECT})[^.?;]{2,60}?\s+now\b`,
    'i',
  ),
  // "pickup is 2:45 now", "standup is at 10 now"
  /\b(?:is|are)\s+(?!\w+ing\b|not\b|still\b|broken\b|fixed\b|working\b|done\b|fine\b|ok\b)(?:at\s+|on\s+|the\s+)?[\w.:'-]+(?:\s+[\w.:'-]+){0,3}\s+now\b/i,
  // "we're fully remote now", "i'm pescatarian now"; not "i'm done now", "i'm confused now"
  /\b(?:we're|i'm|we are|i am)\s+(?:fully\s+|completely\s+|officially\s+|totally\s+|an?\s+)?(?!(?:done|ready|back|here|there|home|stuck|confused|lost|hungry|tired|busy|free|good|fine|ok|okay|sure|sorry|going|getting|leaving|trying|about|almost|still|just|so|too|all|not|really|very|happy|glad|seeing|working|waiting|looking|able)\b)[\w-]+(?:\s+[\w-]+)?\s+now\b/i,
  // "that's my workout now", "that's our one streaming sub now"
  /\bthat's\s+(?:my|our|the)\s+[^.?;]{1,40}\s+now\b/i,
  // "we killed the develop branch", "cancelled netflix", "uninstalled docker desktop"
  new RegExp(
    String.raw`(?:${LEAD}|\b(?:we|i|the team)\s+(?:have\s+|'ve\s+|finally\s+|just\s+)?)(?:${DROP_VERB})\s+(?:the\s+|our\s+|my\s+)?[\w.+#/-]{2,}`,
    'i',
  ),
  // "the 1password vault is deleted", "pagerduty is cancelled", "the old repos are archived", "knex has been removed"
  // Not a body or a battery: "legs are dead", "my phone is dead" pass by tomorrow.
  /\b(?!(?:it|this|that|which|legs?|feet|arms?|knees?|back|hands?|eyes|brain|phone|battery|laptop)\b)[\w.+#/-]{2,}\s+(?:is|are|was|were|has been|have been|got|is being|are being)\s+(?:gone|deleted|archived|cancell?ed|retired|removed|deprecated|dead|history|shut (?:off|down)|decommissioned|sunset)\b/i,
  // "we changed on-call to 2-week shifts", "bumped everything to node 22", "we've pushed bedtime to 8"
  new RegExp(
    String.raw`(?:${LEAD}|\b(?:we|i|the team|they|she|he|[A-Z]\w+)\s+(?:have\s+|'ve\s+|has\s+|just\s+|finally\s+)?)(?:${MOVE_VERB})\s+(?:[\w.:'+#/-]+\s+){1,5}?(?:to|into|onto|for|with)\s+[\w.:'+#/-]`,
    'i',
  ),
  // "standup moved to 10:15", "oscar's practice got moved to thursdays"
  /^(?:(?:fyi|btw|heads up|so|oh)[,:\s]+)*(?:the\s+|our\s+|my\s+)?[\w.'-]+(?:\s+[\w.'-]+)?\s+(?:got\s+|has\s+been\s+|was\s+|is\s+)?(?:moved|changed|pushed|shifted|bumped|switched)\s+(?:back\s+)?(?:to|from)\s+\S/i,
  // "running colima instead", "booked a cottage in cornwall for the same dates instead"
  /\b(?:running|using|doing|on|booked|started|went with|got|chose|picked|bought|adopted|joined)\s+[^.?;]{1,50}\binstead\b/i,
  // "we adopted drizzle for all db access", "replaced it with a thinkpad"
  /\b(?:we|i)\s+(?:have\s+|'ve\s+)?(?:adopted|standardi[sz]ed on|settled on|went with|moved to)\s+\w/i,
  /\breplaced\s+(?:it|them|that|[\w.+#/-]+(?:\s+[\w.+#/-]+){0,2})\s+with\s+\w/i,
  // "we're switching to wwise", "ok scratch fmod"
  /\b(?:we're|we are|i'm|i am)\s+(?:switching|moving|migrating|changing)\s+(?:over\s+)?to\b|^(?:(?:ok|so|right)[,\s]+)*scratch\s+(?!(?:that|this|it|the last|my last)\b)[\w.-]+/i,
  // "got starlink put in on the roof", "got a heat pump fitted"
  /^(?:(?:so|ok|and|fyi|btw|update)[,:\s]+)*(?:we\s+|i\s+)?(?:finally\s+|just\s+)?got\s+(?:an?\s+|the\s+)?[\w.-]+(?:\s+[\w.-]+)?\s+(?:put in|installed|fitted|set up)\b/i,
  // "mummy has gone back to abeokuta, we got a live-in nanny for the nights now"
  /\b(?:has|have|'s)\s+gone\s+back\s+to\b|\b(?:we|i)\s+(?:got|hired|found)\s+an?\s+[^.?]{2,30}?\s+now\b/i,
  // Any verb of the present with "now" at the end, not how a task is going: "the kids walk to school on
  // their own now", "prod runs on kubernetes now", "we host everything on hetzner now", "there's a second
  // on-call person now"; not "i see the error now", "the fix works now", "prod runs fine again now".
  new RegExp(String.raw`^${LEAD_WORDS}(?:${PRONOUN_VERB}|${NOUN_VERB})\s+${NOT_TASK_GAP}[^.?;,]{1,40}?\s+${NOW_AT_CLAUSE_END}`, 'i'),
  new RegExp(String.raw`^${LEAD_WORDS}there(?:'s| is| are)\s+(?:an?|two|three|\d+)\s+[\w -]{2,30}?\s+${NOW_AT_CLAUSE_END}`, 'i'),
  // "we're not on booking.com anymore"
  /\b(?:we're|we are|i'm|i am)\s+not\s+(?:on|with|using|at|in|doing|taking|eating|drinking|going to)\s+(?:[^.?;]|\.(?=\w)){1,40}?\s*\bany ?more\b/i,
  // "json saves were too big so now they're messagepack"; not "so now it's broken"
  /\bso now\s+(?:they're|it's|we're|they are|it is|we are)\s+(?!(?:\w+ing|not|still|broken|fixed|done|fine|ok|okay|good|better|worse|up|down|back|live|ready|online|offline|open|closed|over|gone|here|there|too|so|very|really|just|a|an|the|all|stuck|slow|fast|faster|slower)\b)[\w.+#-]+/i,
  // "since the reorg it's just one approval", "after the migration CI is github actions"
  /^(?:(?:ok|so|fyi|btw|update)[,:\s]+)*(?:since|after)\s+the\s+(?:[\w-]+\s+){0,2}(?:reorg|re-org|migration|move|switch|merger|acquisition|upgrade|rewrite|restructure|restructuring|buyout|takeover|split)\b/i,
  // "EA slipped to may", "put the double up to €100 a night"
  /\b(?:slipped|slid|got pushed|pushed back|brought forward)\s+(?:back\s+)?to\s+\S/i,
  /\b(?:put|bumped|pushed|raised|dropped|cut|brought)\s+(?:the\s+|our\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:up|down)\s+to\s+[€£$]?\d/i,
  // "getting the meal from a lad in listowel now"
  /^(?:(?:so|ok|and|fyi|btw)[,\s]+)*(?:we're\s+|i'm\s+)?getting\s+(?:the|our|my)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:from|at|through|off)\s+[^.?]{2,40}?\s+now\b/i,
  // "Colm's home from australia for good"
  /\bfor good\b(?!\s+(?:measure|reason|luck|behaviou?r|cause|health))/i,
  // "her niece Aoife is doing the rooms now", "Seánie from down the road does the relief milking on sundays now"
  /(?<![\p{L}'])(?!(?:It|This|That|What|Which|There|Here|Everything|Nothing)\b)\p{Lu}[\p{L}'-]+(?:\s+from\s+[^,.;]{1,25})?\s+(?:is\s+|'s\s+)?(?:doing|running|handling|covering|teaching|managing|working|does|runs|handles|covers|teaches|manages|works)\s+[^,.?!;]{1,40}?\s+now\b/u,
  /\b(?:he|she)(?:'s|s| is)\s+(?:doing|running|handling|covering|teaching|managing|working)\s+(?:the|our|my)\b[^,.?!;]{1,40}?\s+now\b/i,
  // "Bridie retired", "Pat's gone to England"; case matters, and "Chrome quit unexpectedly" is a crash
  /(?<![\p{L}'])\p{Lu}[\p{L}']+\s+(?:retired|quit|passed away|emigrated|moved away)\b(?!\s+(?:unexpectedly|again|on\s+(?:me|us)|working|responding|without))|(?<![\p{L}'])\p{Lu}[\p{L}']+'s\s+gone\s+(?:to|back|off)\b/u,
];

/** Not a change to remember: how a task is going ("it works now", "tests pass now"). */
const TASK_STATE =
  /^(?:(?:ok|so|and|yeah|great|nice|cool)[,\s]+)*(?:it|this|that|the (?:test|tests|build|page|app|code|script|fix|error|bug)\w*)\b/i;

export function statesChangeForGood(text: string): boolean {
  if (TASK_STATE.test(text)) return false;
  return FORMS.some((re) => re.test(text));
}
