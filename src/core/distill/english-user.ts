import { statesChangeForGood } from './english-change.js';
import {
  CHANGE_MORE_RE,
  LIFE,
  NOT_A_PLACE,
  NOW_STATE,
  ON_PLATFORM,
  SETUP_VALUE,
  SUPPLIED_FROM,
  TEAM_PRACTICE,
  TERSE_NEWS,
  THEIR_ROLE,
  THEIR_VEHICLE,
  WE_TRADE,
  PINNED,
  STILL_VALUE,
  UPKEEP,
  WINDOW_POLICY,
  STANDING_REQUEST,
  STANDING_SITUATION,
} from './english-facts.js';
import type { Trigger } from './rule-patterns.js';
import { talkOfTheMoment } from './english-talk.js';
import { featureBranchVeto, type Veto } from './veto.js';
import { CONTRAST } from './english-contrast.js';
import { pinsVersionNow } from './version-now.js';
import { deviceSlotsOf } from './device-slots.js';

/**
 * How people really type durable things to an agent in English, beyond the explicit trigger phrases
 * of rule-patterns.ts: without apostrophes ("im", "dont", "u"), as a habit ("i run tue thu sat"), as a
 * fact with a consequence for the agent ("..., so dont book calls then"), about their people ("husband
 * is raj"), as a change ("we ripped datadog out", "switched banks to monzo") or a lesson learnt the
 * hard way. And what makes an English user sentence junk however durable it sounds: a question, a
 * hypothetical, someone else's opinion, sarcasm, an object only the conversation names ("do that
 * again"), or a time that is only now ("rn", "today", "this time").
 */

/** Contractions typed without the apostrophe, and chat shorthand, spelt out for matching. */
const INFORMAL: Array<[RegExp, string]> = [
  [/\b(i)m\b/gi, "$1'm"],
  [/\b(i)ve\b/gi, "$1've"],
  [/\b(do|does|did|is|are|was|were|can|won|wouldn|shouldn|couldn|has|have|had|ain)nt\b/gi, "$1n't"],
  [/\b(can|won)t\b/gi, "$1't"],
  // Not "were": it is a word of its own, except opening a sentence before what "we are" ("were a 3 person startup").
  [/\b(you|they)re\b/gi, "$1're"],
  [/^(were)(?=\s+(?:a|an|\d+|all|both|based|on|using|still|not|fully|mostly|just|only|the only)\b)/i, "we're"],
  // Letters drawn out for effect at the end of a lower-case word: "whyyy", "sooo", "nooo" (not "vYYYY", "www.").
  [/\b([a-z]{0,6}?)([a-z])\2{2,}\b(?![.\w/-])/g, '$1$2'],
  [/\b(that|there|what|it)s\b(?=\s+(?:a|an|the|my|our|not|what|how|why|just|where|because|on|in|at|for|\w+ing)\b)/gi, "$1's"],
  // "the api's on 8080", "my mum's in leeds": after a noun, "'s" before a place, an article or an adverb is
  // "is"; after a preposition it is whose place ("christmas at my mum's in belfast").
  [
    /\b(?<!\b(?:at|to|from|near|round|around|by)\s+(?:(?:my|our|the|his|her|their|your|a)\s+)?)(?!(?:it|that|there|what|here|who|he|she|let|where|how)'s)([a-z][\w.-]*)'s\s+(?=(?:on|in|at|with|a|an|the|still|now|not|always|never|just|all|hosted|running|deployed|based|written|built|\d)\b)/gi,
    '$1 is ',
  ],
  // "todays run", "tomorrows a rest day": a time word typed without its "'s".
  [/\b(today|tonight|tomorrow|yesterday)s\b/gi, "$1's"],
  [/\bu\b/gi, 'you'],
  [/\bteh\b/gi, 'the'],
  [/\bur\b/gi, 'your'],
  [/\b(?:pls|plz|plse)\b/gi, 'please'],
];

export function foldInformal(text: string): string {
  let out = text;
  for (const [re, to] of INFORMAL) out = out.replace(re, to);
  return out;
}

// Whole names are the short form and "day" ("satur" + "day"): "sat(?:day)?" alone never read "saturday".
const DAY = String.raw`(?:mon|tue|tues|wed|weds|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?s?`;
/** A schedule that repeats: "every friday", "tue thu sat mornings", "at 6am every day", "mon-wed". */
const SCHEDULE = new RegExp(
  String.raw`\b(?:every|each)\s+(?:\d+(?:st|nd|rd|th)\s+|(?:other|two|three|four|six|couple of|few|\d+)\s+)?(?:days?|nights?|mornings?|evenings?|weeks?|weekends?|weekday|weeknight|workday|work day|school day|months?|years?|${DAY})\b|\b(?:daily|weekly|monthly|nightly|weekdays|weekends)\b|\b${DAY}(?:\s*(?:-|to|and|,)\s*${DAY})+\b|\b(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b|\b(?:first|last|second|third)\s+(?:${DAY}|working day|weekday|week|weekend|day)\s+of\s+(?:every|the|each)\s+month\b|\b${DAY}\s+(?:nights|mornings|evenings|afternoons)\b|\bmost\s+(?:days|mornings|evenings|nights|weekends)\b|\bof every month\b|\bfirst thing\b|\bat\s+(?:half\s+)?\d{1,2}(?:[:.]\d{2})?\s+in the morning,?\s+and\s+(?:at\s+)?(?:half\s+)?\d{1,2}(?:[:.]\d{2})?\s+in the (?:evening|afternoon)\b|\bin the (?:mornings|evenings|afternoons)\b|\b(?:\d+|one|two|three|four|five|six|a few|a couple of)\s+(?:cups?|glasses|pints|times|hours|km|miles|coffees|teas|meals|walks)\s+(?:a|per)\s+(?:day|week|night)\b|\b(?:once|twice|(?:one|two|three|\d+)\s+times|one\s+${DAY}|one\s+weekend)\s+(?:a|per)\s+(?:week|fortnight|month|year)\b`,
  'i',
);

/** A request to do something now, however scheduled ("remind me every friday" is a task for the agent). */
const IMPERATIVE_START =
  /^(?:(?:ok|so|also|and|hey|pls|please)[,\s]+)*(?:remind|book|send|check|find|make|add|run|do|set|schedule|tell|write|create|fix|get|move|put|show|give|help|can|could|would|will|should|is|are|do|does|did)\b/i;

const FIRST_PERSON_HABIT =
  /\b(?:i|we)\s+(?:usually\s+|always\s+|normally\s+)?(?:run|swim|cycle|train|work|take|do|go|have|play|sing|teach|coach|volunteer|visit|call|see|drive|walk|meet|shop|cook|pay|get)\b/i;

/** Who the user is, in words no trigger phrase covers ("i'm a nurse doing 12h shifts", "im type 1 diabetic"). */
const IDENTITY =
  /\bi'm\s+(?:a|an|allergic|vegetarian|vegan|pescatarian|based|from|married|divorced|single|left-handed|colou?r-?blind|red-green|hard of hearing|deaf|diabetic|type [12]|pregnant|lactose|gluten|celiac|coeliac|learning|training for|on call|on a (?:cut|diet|budget)|on \d|in charge of|responsible for|the (?:only|main|lead|sole))\b|\bi'm\s+(?:pretty |fairly |quite |very |still |kinda |totally |completely )?new to\b|^(?:(?:also|btw|fyi)[,\s]+)*(?:doing a (?:part[- ]time |full[- ]time )?(?:masters|phd|degree|diploma|course|apprenticeship)|learning\s+(?!to\b|how\b|about\b|a lot\b|that\b|this\b|it\b)\w+)|\bi'm\s+(?:not\s+)?(?:a|an)\s+\w+\s+person\b|\bi'm the (?:one|person|only one) who\s+(?:owns|handles|does|runs|maintains|manages|looks after|deals with|reviews)\b|\bi'm\s+\w+ic\b|\bi'm\s+(?:on|using)\s+(?:windows|mac|macos|linux|a mac|an? \w+ ?(?:laptop|phone))\b|\bi\s+(?:maintain|own|manage|bank with|grew up|was born|speak|sing in|play in|paint|grow|teach|(?:don't\s+)?(?:eat|drink)|keep|have (?:a|an|two|three|\d) (?:kids?|sons?|daughters?|dogs?|cats?|allerg\w+))\b|^(?:(?:fwiw|fyi|btw|also)[,\s]+)*had\s+(?:an?\s+)?[\w-]+(?:\s+[\w-]+){0,3}\s+(?:on|in)\s+(?:my|\d{4})\b/i;

/** The user's people and pets, named with or without "my": "husband is raj", "kids are at st brigid's". */
const RELATION =
  /\bgot married\b|\bwas born (?:on |in )?(?:the )?\d|\b(?:anniversary|birthday|bday)\s+is\b|^(?:(?:also|oh|and|fyi|btw)[,\s]+)*(?:my\s+)?(?:(?:other|older|younger|little|big|eldest|oldest|youngest|middle|twin|step)\s+)?(?:husband|wife|partner|hubby|bf|gf|boyfriend|girlfriend|son|daughter|kids?|children|mum|mom|dad|mother|father|parents|in-?laws|mother in law|father in law|sister|brother|landlord|landlady|boss|manager|dentist|doctor|gp|therapist|dog|cat|nanny|cleaner|accountant)\b[^.?]{0,30}?\b(?:is|are|works|lives|comes|goes|has|have|starts|finishes|gets|eats|drinks|sees|takes|does|plays|attends|needs|see|take|do|play|attend|need|eat|drink|go)\b/i;

/** A fact with what it means for the agent: "..., so dont suggest it", "when i ask for recs skip the chains". */
const CONSEQUENCE =
  /,?\s*so\s+(?:please\s+)?(?:don't|do not|never|always|skip|keep|include|use|avoid|check|ask|flag|suggest|assume|plan|expect|leave|stop|no\b)|\bso\s+(?:any|anything|that's (?:when|why|probably why)|[^.?]{0,40}\b(?:is|are) (?:a no go|out|no use|not an option|a real thing)\b|[^.?]{0,40}\b(?:for|to) me\b)|\b(?:ask|check with|tell) me (?:before|first)\b|\bflag it to me\b|\b(?:for context|for reference)\s*[:,]|\bso (?:if|when|whenever) (?:i|you)\b|\b(?:when|whenever|if|any ?time) (?:i|you) (?:ask|say|want|need|draft|write|plan|suggest|book|send|make|mention|recommend|explain|answer|reply|show)\b[^?]{3,80}[,.]|\bkeep that (?:day |in mind|straight|clear)|\bwhen i say\b/i;

/**
 * More ways to tell a change: "X now, not Y" ("it's DASH diet now, not low carb"), "i now read early
 * mornings", "five a side's tuesdays now", "ripped redux out of the app", "we hired aisha", "i'm up to
 * 35k a week now".
 */
const CHANGE_TOLD =
  /\bnow\b[^.?]{0,40},\s*not\s+(?:an?\s+|the\s+)?[\w.-]+|\b(?:i|we)\s+now\s+(?!(?:have|need|know|see|understand|get|got|think|feel|reali[sz]e|remember|want|can|could|must|should|am|are|try|tried)\b)[a-z]{3,}|\b(?<!\b(?:it|that|this|what|there|here|where|who|let))'s\s+(?!(?:\w+ing|not|still|broken|fixed|done|fine|ok|okay|good|better|worse|up|down|back|live|ready|online|offline|open|closed|over|gone|here|there|all set)\b)(?:on\s+|at\s+|the\s+)?[\w.:'-]+(?:\s+[\w.:'-]+){0,3}\s+now\b|^(?:(?:also|oh|and|fyi|btw|ok|right|so)[,\s]+)*(?:finally\s+|just\s+)?(?:ripped|pulled|tore)\s+[\w.-]+(?:\s+[\w.-]+)?\s+out\b|\bwe(?:'ve| have)?\s+(?:just\s+|finally\s+)?hired\b|\b(?:i'm|we're|i am|we are)\s+(?:now\s+)?(?:up|down)\s+to\s+\d|\bforced (?:us|me)\s+(?:up\s+|down\s+|over\s+|back\s+)?(?:to|onto)\b|\b(?:i|we)(?:'ve| have)\s+gone with\b|(?:^|[,;!—–-]\s*)no more\s+(?!(?:questions?|today|tonight|for now|for today|please|thanks|than|of|than|excuses)\b)[\w-]+/i;
/** Someone named who left or retired: "Priya's left for Monzo", "Matron Okafor has retired". Case matters. */
const NAMED_LEFT = /\b[A-Z][a-z]+(?:'s|\s+has)\s+(?:left|quit|retired|graduated)\b/;

/** A change that now holds: "we ripped datadog out", "switched banks to monzo", "no coffee after 2pm anymore". */
const CHANGE =
  /\b(?:we|i|the team|they)\s+(?:have\s+|'ve\s+)?(?:stopped using|ripped\s+[\w.-]+(?:\s+[\w.-]+)?\s+out|ripped out|dropped|ditched|got rid of|gave up|given up(?: on)?|quit|moved\s+(?:[\w./-]+\s+){1,4}(?:from\s+[^,.]{1,30}\s+)?(?:to|over to|onto)|migrated\s+(?:[\w./-]+\s+){1,4}to)\b|^(?:(?:also|oh|and|fyi|btw|ok|right|so)[,\s]+)*(?:just\s+)?(?:switched|moved|changed|migrated)\s+(?:[\w.'-]+\s+){0,7}(?:to|over to|onto|off)\b|^(?:(?:also|oh|and|fyi|btw|ok|right|so)[,\s]+)*(?:cancelled|canceled|quit|left|sold|dropped|ditched|ended)\s+(?:the|my|our)\b|\bwe\s+(?:sold|split|cancelled|canceled|left|went with)\b|\b(?:we're|i'm)\s+(?:fully\s+|now\s+)?(?:on|with)\s+[\w.-]+(?:\s+[\w.-]+)?\s+now\b|\b(?:getting|being|been)\s+(?:ripped out|phased out|retired|removed for good)\b|\b(?:i|we)\s+(?:have\s+|'ve\s+)?(?:just\s+)?(?:switched|swapped|moved|migrated|changed)\s+(?:over\s+)?to\b|\b(?:don't|doesn't|do not|does not|no)\b[^.?]{1,40}\banymore\b|\b(?:is|are)\s+(?!\w+ing\b)(?:the\s+)?[€£$]?[\w.@'-]+(?:\s+[\w.@'-]+){0,3}\s+now\b|\b(?:is|are)\s+(?:banned|forbidden|off limits|deprecated|not allowed)\b|\bas of (?:this|last|next)\s+\w+|\bnobody\s+\w+s?\b[^.?]{0,30}\banymore\b/i;

/** A standing rule without the usual markers: a scope ("any shell script you write", "on everything"), "X only", "would rather". */
const SCOPED_RULE =
  /^(?:(?:also|and|oh|ok|fyi|btw|reminder|heads up|note|ps)[,:\s]+)*(?:any|every|all)\s+[\w-]+(?:\s+[\w-]+){0,3}\s+(?:you|we|i)\s+(?:write|make|create|draft|add|generate|send|book|suggest)\b|^(?:(?:also|and|oh|ok|fyi|btw|reminder|heads up|note|ps)[,:\s]+)*(?:any|every|all)\s+[\w/-]+(?:\s+[\w/-]+){0,3}\s+(?:means|needs? to|must|should|has to|have to)\b|\ball\s+[\w-]+(?:\s+[\w-]+){0,2}\s+(?:has to|have to|must|needs? to)\b|(?:^|[,;]\s*)(?:no|zero)\s+[\w().`-]+(?:\s+[\w.`-]+){0,2}\s+(?:in|into|on|for|after|before|at)\s+(?:anything|any|all|every|\w+)\b|\b(?:drives?|drove) me (?:nuts|crazy|mad|insane|up the wall)\b|\b(?:tastes?|smells?|looks?|sounds?) like [^.]{1,30} to me\b|\bi (?:really )?(?:appreciate it|like it|love it|hate it) when\b|\bi (?:really )?don't need (?:the|a|any)\b|\S\s>\s\S|^keep\s+[\w ]{1,30}?\s+(?:short|brief|tight|simple|casual|concise|plain)\b|\bi find\s+[^.?]{1,60}\s+(?:noisy|annoying|cringe|useless|confusing|distracting|unreadable|hard to read|easier|harder|clearer)\b|^(?:[^,?]{4,80}?\b(?:is|are|goes|go|runs?|lives?|uses?|gets?|comes?|ships?|deploys?|builds?|happens?|pins?|targets?|stores?|reads?|pulls?|points?|signs?|talks?)\b|[^,?]{0,80}?\b(?:we|i)'(?:re|m)\s+(?:still\s+)?(?:on|with|using)\b)[^?]{1,50},\s*not\s+(?:an?\s+|the\s+)?[\w.`'/-]+|\bruns?\s+[\w.-]+(?:\s+[\w.-]+)?\s+not\s+[\w.-]+|\bon everything\b|\b(?:in|for|on) this (?:repo|codebase|project|house|family|team)\b|\b(?:out of bounds|off[ -]limits)\b|\bno exceptions\b|\b(?:in|for) anything (?:you|u) (?:draft|write|send|make|book|suggest)\b|\b[\w-]+\s+only(?:\s+(?:please|thanks))?(?:[.!]?$|,\s*no\b)|\bi'?d\s+(?:much\s+|really\s+)?rather\b|\bwould\s+(?:much\s+|really\s+)?rather\b|\bnot a (?:big |huge )?fan of\b|\bi find (?:them|it|those|these) (?:so |really |super )?\w+|\b(?:prefer|want)\s+(?:small|short|tight|simple|plain|casual|formal|metric|imperial|local)\b|\bis a (?:family|house|team|hard) rule\b|\bon purpose\b|\b(?:deliberately|intentionally)\s+(?:not|pinned|kept|left)\b/i;

/** Lessons the way people tell them: "learnt the hard way", "note for future you", "for next time", "lesson: ...", "that's expected". */
const LESSON =
  /\bthe hard way\b|(?:^|[.!]\s+)lesson\s*[:-]|\blearn[te]d? (?:that|this|it) (?:last \w+|years ago)\b|\b(?:that'?s|that is)\s+(?:totally |completely |perfectly )?(?:normal|expected|by design|intended|not a bug)\b|\b(?:it'?s|it is)\s+(?:expected|by design|intended|not a bug)\b|\bnote (?:for|to) (?:future|self)\b|\bfor next time\b|\blesson from\b|\bcost me (?:a|an|the|two|three|\d)\b|\bthat's the first place to look\b|\b(?:was|is) the (?:culprit|cause)\b|\bfound (?:it|the cause)\b[^?]{0,20}\bwas\b|\bwasted (?:a|an|the|two|three|\d)\b|\bfound (?:that|this) out\b|\bworth knowing\b|\bsweet spot\b|\bnote from\b|\bfigured out\b|\bone to watch\b|^(?:(?:fyi|btw|so)[,\s]+)?last (?:time|year|summer|winter)\b[^?]{15,}|\b(?:was|were|kept)\s+\w+ing\b[^.?]{0,60}\b(?:because|bc|due to)\b/i;

/** A decision stated without "we decided to": "decided last night", "team agreed", "we set our budget at". */
const DECISION =
  /\bdecided\s+(?:last|yesterday|on|in|at|this|over)\b|\b(?:team|we|everyone)\s+agreed\b|\bwe\s+set\s+(?:our|the|a)\b|\bmin(?:imum)? supported is\b|\bwe(?:'re| are)\s+(?:selling|keeping|moving|going|staying|sticking|not doing)\b|\b(?:was|got|been) settled\b|\bagreed\s*:|\bdecided[.!]?\s*$/i;

/** A named thing and what it is: "prod box is a hetzner ax41", "back garden is heavy clay", "default branch is called trunk". */
const NAMED_FACT =
  /^(?:(?:fyi|btw|also|oh|so|heads up)[,\s]+)*(?:[\w -]{3,30}:\s+)?(?:(?:in|for|on)\s+(?:the|our|all)\s+[\w -]{2,30}?,?\s+)?(?!no\b|nothing\b)(?:the\s+|this\s+|our\s+|all\s+)?[\w.'&-]+(?:\s+[\w.'&-]+){0,7}\s+(?:is|are|runs?|lives?|uses?|targets?|supports?)\s+(?!(?:at \d|broken|wrong|missing|off|weird|bad|good|fine|ok|okay|slow|failing|down|up|empty|blank|gone|stuck|better|worse|too|not|still|just|so|really|being|getting|going|done|ready|back|here|there|it|that|this|\w+ing)\b)(?:(?:an?|on|in|at|called|named)\s+[\w.'`/-]+|[\w.'`/-]+\s+[\w.'`/-]+|[\w'-]*(?:[\d`/_]|\.\w)[\w.'`/-]*)/i;

/** Where a team's things go and how they are wired: "errors from the api go to sentry", "alerts page us through opsgenie". */
const WIRING =
  /^(?:(?:fyi|btw|also|oh|so|heads up|reminder|note)[,:\s]+)*(?!(?:it|this|that|nothing|no|everything|something)\b)(?:the\s+|our\s+|all\s+|most\s+of\s+(?:the|our)\s+)?[\w.'&-]+(?:\s+[\w.'&()-]+){0,5}?\s+(?:go(?:es)?\s+(?:to|into|in|through|via)|comes?\s+(?:in\s+)?(?:through|via)|gets?\s+(?:shared|sent|stored|deployed|logged|posted|routed|built|pushed|synced|backed up|published|released)\s+(?:through|via|to|into|in|on|from)|listens?\s+on|pages?\s+(?:us|me|the team|whoever is on call)\s+(?:through|via|on|in)|(?:is|are)\s+(?:hosted|deployed|built|tracked|stored|kept|managed|handled|shared|backed up|logged|published)\s+(?:on|in|at|by|through|via|with))\s+(?!(?:the wrong|a wrong|nowhere|404|it|that|this|them|waste|sleep|bed|school|work|lunch)\b)\S/i;
/** What makes a wiring sentence an incident, not a set-up: "requests go to the wrong pod again". */
const INCIDENT =
  /\b(?:wrong|broken|break(?:s|ing)?|fail(?:s|ing|ed)?|crash\w*|stuck|hangs?|hanging|times? out|timing out|somehow|keeps?|kept|again|still|suddenly|randomly|sometimes|instead of where|for some reason|weird|why)\b/i;
/** A team's merge and release rules with a plural or "every" subject: "PRs need 2 approvals before merge". */
const TEAM_RULE =
  /^[\w/*.-]+(?:\s+branch(?:es)?)?\s+(?:is|are)\s+(?:protected|locked)\b|^(?:(?:team rule|house rule|rule|fyi|btw|also|reminder)[,:\s]+)*(?:[\w -]{3,40}:\s+)?(?:(?:in|for|on)\s+(?:our|the|this|all)\s+[\w -]{1,30}?,?\s+)?(?:an?\s+(?:pr|pull request|merge request|mr|commit|release|deploy|migration|change|hotfix)|(?:all|every|any|each)\s+(?:[\w-]+\s+){0,2}(?:pr|prs|pull requests?|merge requests?|mrs?|commits?|releases?|deploys?|deployments?|migrations?|changes?|bug ?fix(?:es)?(?:\s+prs?)?)|(?:prs|pull requests|merge requests|mrs|commits|releases|deploys|deployments|migrations|schema changes|hotfixes))\b[^.?]{0,40}?\b(?:needs?|requires?|must have|have to (?:have|get|pass)|has to (?:have|get|pass))\s+(?!(?:a rebase|rebasing|fixing|to be fixed)\b)\S/i;
/** Someone's recurring slot, with a time: "zoe has swimming saturday 9am", "Mia's school starts at 8:40". */
const THEIR_SCHEDULE =
  /^(?!(?:it|this|that|he|she|they|there|we|i|you|nothing|everything)\b)[\w'-]+(?:'s)?(?:\s+[\w'-]+){0,2}(?:\s*(?:,[^,]{1,30},|\([^)]{1,30}\)))?\s+(?:has|does|goes|starts|finishes|ends|opens|closes|takes|eats|drinks|plays|works|gets picked up|picks (?:\w+ )?up|drops (?:\w+ )?off)\b/i;
const RECURRING_TIME = new RegExp(
  String.raw`\b${DAY}\b|\bweek(?:day|night|end)s\b|\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\bat\s+\d{1,2}[:.]\d{2}\b|\b(?:a|per)\s+(?:day|week|month)\b`,
  'i',
);
/** A one-off event, not a standing slot: "has a dentist appointment next friday". */
const ONE_OFF =
  /\b(?:this|next|last)\s+(?:mon|tue|wed|thu|fri|sat|sun|week)\w*|\b(?:appointment|interview|flight|party|meeting|exam|surgery|ready|due|deadline)\b|\bby\s+\d|\bon the \d/i;
/** Someone's health fact: "Leo has a peanut allergy", "the kids are lactose intolerant". */
const HEALTH =
  /^(?:(?:also|and|fyi|btw|oh)[,\s]+)*(?:(?:mildly|very|severely|a bit|slightly|super)\s+)?allergic to\b|\b(?:has|have)\s+(?:an?\s+)?(?:severe\s+|mild\s+|bad\s+)?[\w-]+\s+(?:allergy|allergies|intolerance)\b|\b(?:is|are)\s+(?:allergic to|lactose intolerant|gluten intolerant|coeliac|celiac|diabetic|type [12] diabetic)\b|\b(?:i|he|she|they)(?:'ve| have| has)\s+(?:got\s+)?(?:an?\s+)?(?:bad|dodgy|weak|slipped|arthritic|replaced|new)\s+(?:back|knees?|hips?|shoulders?|disc|heart|ankles?|wrists?)\b|\b(?:i|he|she|they)(?:'ve| have| has)\s+(?:got\s+)?(?:asthma|arthritis|type [12] diabetes|diabetes|high blood pressure|high cholesterol|coeliac disease|a pacemaker|gout|migraines|epilepsy|glaucoma|psoriasis)\b/i;
/** What a household or team has: "we have a cat called pepper", "we have three environments: dev, staging, prod". */
const WE_HAVE =
  /\b(?:we|i)(?:'ve got| have| got)\s+an?\s+[\w-]+(?:\s+[\w-]+)?\s+(?:season ticket|pass|membership|subscription)\b|\bwe(?:'ve got| have| got)\s+(?:(?:an?|one|two|three|four|five|\d+)\s+[\w-]+(?:\s+[\w-]+){0,2}\s+(?:called|named)\b|(?:two|three|four|five|six|\d+)\s+(?!(?:problems|issues|bugs|questions|options|choices|things|ideas|tasks|errors|failures|tests|prs|tickets|blockers|concerns)\b)[\w-]+s\b\s*[:(]|an?\s+[\w-]+(?:\s+[\w-]+)?\s+(?:plan|subscription|membership|account|licen[cs]e)\b)/i;
/** How a team does a kind of work: "we write db queries with knex", "we do deploys through argo". */
const WE_DO_WITH =
  /\b(?:we|i)\s+(?:render|test|check|debug|profile|preview)\s+(?:(?:them|it|everything|all|[\w-]+)\s+){0,2}on\s+(?:an?\s+|the\s+|our\s+|my\s+)?[\w.-]+\s+[\w.-]+|\bwe\s+(?:write|do|run|build|test|format|lint|handle|manage|ship|release|bundle|schedule|review|monitor|cache|store|persist|log|track|host|queue|encrypt|sign)\s+(?!(?:it|this|that|them|a|the)\b)[\w.-]+(?:\s+[\w.-]+){0,3}\s+(?:with|using|through|via|in)\s+(?!(?:it|this|that|them|a bit|a while)\b)\S/i;

const T = (name: string, category: Trigger['category'], confidence: number, re: RegExp): Trigger => ({
  name,
  category,
  confidence,
  pattern: { test: (text: string) => re.test(foldInformal(text)) },
});

const HABIT: Trigger['pattern'] = {
  test: (text) => {
    const t = foldInformal(text);
    return SCHEDULE.test(t) && (FIRST_PERSON_HABIT.test(t) || RELATION.test(t) || !IMPERATIVE_START.test(t));
  },
};

/** Appended to the English user triggers: tried after the explicit phrases. */
export const USER_TRIGGERS_EN_IMPLICIT: Trigger[] = [
  {
    name: 'change',
    category: 'preference',
    confidence: 0.75,
    pattern: { test: (text: string) => statesUserChange(text) },
  },
  T('decision', 'decision', 0.75, DECISION),
  T('lesson', 'lesson', 0.7, LESSON),
  T('identity', 'fact', 0.7, IDENTITY),
  T('relation', 'fact', 0.7, RELATION),
  { name: 'habit', category: 'fact', confidence: 0.7, pattern: HABIT },
  T('consequence', 'rule', 0.7, CONSEQUENCE),
  T('scoped-rule', 'rule', 0.7, SCOPED_RULE),
  T('named-fact', 'fact', 0.6, NAMED_FACT),
  {
    name: 'wiring',
    category: 'fact',
    confidence: 0.65,
    pattern: { test: (text) => WIRING.test(foldInformal(text)) && !INCIDENT.test(text) },
  },
  T('team-rule', 'rule', 0.7, TEAM_RULE),
  {
    name: 'their-schedule',
    category: 'fact',
    confidence: 0.65,
    pattern: { test: (text) => THEIR_SCHEDULE.test(text) && RECURRING_TIME.test(text) && !ONE_OFF.test(text) },
  },
  T('we-have', 'fact', 0.65, WE_HAVE),
  T('health', 'fact', 0.7, HEALTH),
  T('we-do-with', 'fact', 0.65, WE_DO_WITH),
  T('life', 'fact', 0.65, LIFE),
  T('on-platform', 'fact', 0.65, ON_PLATFORM),
  { name: 'their-role', category: 'fact', confidence: 0.65, pattern: THEIR_ROLE },
  T('setup-value', 'fact', 0.65, SETUP_VALUE),
  T('team-practice', 'fact', 0.65, TEAM_PRACTICE),
  T('we-trade', 'fact', 0.65, WE_TRADE),
  { name: 'supplied-from', category: 'fact', confidence: 0.65, pattern: SUPPLIED_FROM },
  { name: 'their-vehicle', category: 'fact', confidence: 0.65, pattern: THEIR_VEHICLE },
  T('window-policy', 'rule', 0.65, WINDOW_POLICY),
  T('upkeep', 'fact', 0.65, UPKEEP),
  T('still-value', 'fact', 0.65, STILL_VALUE),
  T('pinned', 'fact', 0.65, PINNED),
  T('standing-request', 'preference', 0.65, STANDING_REQUEST),
  T('situation', 'fact', 0.65, STANDING_SITUATION),
  T('contrast', 'preference', 0.65, CONTRAST),
];

/** An implicit English statement the gate should see as user evidence. */
export function hasImplicitUserStatement(text: string): boolean {
  return USER_TRIGGERS_EN_IMPLICIT.some((t) => t.pattern.test(text));
}

/** Where someone only is for now, not news: "i'm in a meeting now", "we're on the train now", "i'm at work now". */
export const SOMEWHERE_FOR_NOW = new RegExp(
  String.raw`\b(?:i'm|i am|we're|we are|he's|she's|they're)\s+(?:still\s+|just\s+)?(?:on|at|in|off to)\s+${NOT_A_PLACE}[^.?;,]{0,20}?\s+(?:right\s+)?now\b`,
  'i',
);

/** A change that holds from now on: "now" and "anymore" there do not mark a passing state. */
export function statesUserChange(text: string): boolean {
  // "we've scrapped standup": the change forms read "we have".
  const t = foldInformal(text).replace(/\b(we|i|they)'ve\b/gi, '$1 have');
  if (SOMEWHERE_FOR_NOW.test(t)) return false;
  return (
    CHANGE.test(t) ||
    CHANGE_TOLD.test(t) ||
    NAMED_LEFT.test(t) ||
    CHANGE_MORE_RE.test(t) ||
    NOW_STATE.test(t) ||
    TERSE_NEWS.test(t) ||
    statesChangeForGood(t) ||
    // "got an iphone 15 last week", "bought a macbook air m3": the speaker's new phone, car or computer.
    deviceSlotsOf(t).some((d) => d.change === true)
  );
}

// ---------------------------------------------------------------- what makes it junk

/** A tag after a rule is not a question ("always rebase, ok?"). */
const TAG_QUESTION = /,?\s*(?:ok|okay|got it|understood|yeah|k|alright|capisce|clear)\s*\?+\s*\W*$/i;
const HYPOTHETICAL =
  /^(?:(?:ok|so|hmm+|also)[,\s]+)*(?:what if|hypothetically|suppose|supposing|imagine|in theory|if (?:we|i) (?:were|had|dropped|switched|moved|used|won|could|was|got))\b|^if\b[^,]{0,60},?\s*(?:i'?d|id|we'?d|i would|we would)\b|^if (?:we|i) ever\b|^(?:(?:hmm+|so|idk)[,\s]+)*maybe (?:we|i) (?:should|could)\b/i;
/**
 * A question typed without its mark: "what grants are there for fencing", "does crowdin have a unity
 * plugin", "how do i rebase onto main". A clause the question word opens ("what i want is ...",
 * "when you explain stuff, ...", "what matters is ...") is no question.
 */
const UNMARKED_QUESTION =
  /^(?:(?:ok|so|and|but|also|hey|btw|quick q)[,\s]+)*(?:(?:(?:what|which)(?:\s+(?!(?:i|we|you|they|he|she|it|that|this|matters|counts|works|helps|happens|happened)\b)[\w'-]+){0,4}?|how(?:\s+(?:many|much|long|often|far|big|old)(?:\s+[\w'-]+){0,2}?)?|where|why|who|when)\s+(?:is|are|was|were|do|does|did|can|could|should|would|will)\s+(?!(?:not|to)\b)|does\s+(?!not\b)[\w'-]+\s+[\w'-]+|(?:is|are)\s+(?:there|the|a|an|my|our|your|this|that|these|those|it|he|she|they|we|you)\s+[\w'-]+|(?:do|can|could|should|would|will)\s+(?:i|we|you|they)\s+)/i;
/** Someone else's opinion, quoted: "jake keeps saying we should never use ORMs", "my mum always says". */
const REPORTED =
  /^(?:(?:ok|so|lol|and|also|but|tbh)[,\s]+)*(?:my\s+|our\s+)?(?:[\w'-]+\s+){0,2}?(?:always\s+|keeps\s+|kept\s+)?(?:says|saying|said|swears|reckons|claims|insists|thinks|told me|tells me)\b|^(?:someone|somebody|some guy|a guy|people|everyone|a mate|a friend)\s+(?:(?:on|at|in|from)\s+(?:[\w.'-]+\s+){1,2})?(?:said|says|reckons|claims|swears|told me|thinks)\b|^(?:i\s+)?(?:read|saw|heard)\s+(?:on|in)\s+(?:[\w.'-]+\s+){1,2}that\b/i;
const REPORTED_SELF =
  /^(?:(?:ok|so|and|also|fyi|btw)[,\s]+)*(?:i|we|the team|everyone)\s+(?:always\s+)?(?:says?|said|told you|tell you|agreed|decided)\b/i;
const SARCASM =
  /🙄|😒|\/s\b|\bhuh[.!?]*\s*$|^(?:oh\s+)?(?:sure|yeah right|wow|great|brilliant)\b[^.]*\b(?:brilliant|genius|great idea|know best|love that|perfect)\b|\bsays me\b/i;
/** An object only the conversation names: "do it that way", "do that again", "same as always", "the thing i told you". */
const ANAPHORA =
  /\b(?:do|did|doing|does)\s+(?:it|that|this|them)\s+(?:that|this|the same|the other)?\s*way\b|\b(?:do|did|say|try)\s+(?:that|this|it)\s+again\b|^(?:(?:yes|yeah|ok|so)[,\s]+)*same\s+(?:as|thing|for|here|again)\b|\bthe thing (?:i|you|we) (?:told|said|mentioned|showed)\b|\bthat\s+\w+(?:\s+\w+)?\s+(?:we|you|i)\s+(?:wrote|made|did|discussed|added|built)\s+(?:earlier|before|yesterday|last time)\b|\bthe other (?:one|file|module|function|thing|way|branch|tab|day)\b|^(?:i|we)\s+(?:always|never|keep)\s+\w+\s+(?:it|that|this|them)(?:\s+(?:up|out|wrong|again))?[.!]?$/i;
/** A time that is only now. "as of this week", "starting today" open a standing change instead. */
const MOMENT =
  /(?<!\b(?:as of|starting|since)\s)\b(?:atm|right now|tonight|tomorrow|(?:just|only) this once|this one time|just for (?:this|today|now)|(?:this|these) (?:time|morning|afternoon|evening|ticket|task|refactor|pr|sprint|one|screen|screens|file|files|page|trip|branch|function|component|bug|email|thread|session|module)|for today|for this (?:week|ticket|task|refactor|pr|one|sprint)|(?:till|until) (?:we|i) (?:sort|fix|figure|get)\b[^.]{0,20}\b(?:this|it) out|(?:till|until) (?:we|i) (?:sort|fix) (?:this|it)|for now|at the moment|(?:till|until) (?:i'm|i am|i get|we're|we get) back|before \w+day's)\b/i;
/** "today", "this week": only now, unless the sentence opens a standing change ("team call today: X going forward"). */
const WEAK_MOMENT = /(?<!\b(?:as of|starting|since)\s)\b(?:today|this week(?:end)?)\b/i;
const STANDING = /\b(?:going forward|from now on|for good|as of|anymore|from here on)\b/i;
/** Talking to oneself: "i keep meaning to start journaling", "who am i kidding", "remember when you ...", a grumble about forgetting. */
const SELF_TALK =
  /\bkeeps? forgetting\b|\bi (?:keep meaning to|really need to|should really|need to start|'m never gonna|am never going to|'m gonna try)\b|\bwho am i kidding\b|\blmao+\b|\bgood times\b|\bjk\b|^remember when\b/i;
/** About the agent's last answer: "you literally never get this right", "way too long", "you get the day wrong". */
const COMPLAINT =
  /^(?:(?:ugh|omg|wow|lol|man|dude|bro|seriously)[,\s]+)*you\s+(?:literally\s+|really\s+|seriously\s+|just\s+)?(?:never|always|keep|constantly)\b|\byou (?:get|got|keep getting|mess|messed|screw|screwed)\b[^.]{0,30}\b(?:wrong|up)\b|^(?:way |far |much )?too (?:long|short|verbose|wordy|formal|much)\b/i;

/** Points at something on screen: "no not that, the one above", "the bit below". */
const POINTER =
  /\bthe (?:one|ones|bit|part|line|lines|version|link|file|thing|way) (?:above|below|before that|i (?:sent|pasted|showed))\b|^(?:(?:no|nah|nope)[,.!\s]+)*not (?:that|this|those|these)(?: one)?\b|\b(?:send|post|share|forward|delete|publish|book|order)\s+(?:that|this)\s+(?:email|message|draft|text|post|file|link|one|thing)\b/i;
/** What goes on with the user this moment: "stuck in traffic", "running late", "tell sam i'm 15 min late". */
const RIGHT_NOW =
  /\b(?:stuck in (?:traffic|a meeting|a queue|the queue)|running (?:late|behind)|\d+\s*(?:min|mins|minutes) late)\b|\btell \w+ (?:i'm|i am|we're|we are|that i|that we)\b|\bwon't stop\s+\w+ing\b|\bi'm (?:so|really|super|absolutely|completely) (?:tired|exhausted|knackered|shattered|wrecked|drained|stressed|bored|hungry)\b(?!\s+of\b)/i;
/** A task's deadline: "wants the dashboard done by thursday"; "every sprint" makes it a standing rule. */
const DEADLINE = new RegExp(
  String.raw`\b(?:done|finished|ready|shipped|merged|submitted|sent|fixed)\s+by\s+(?:${DAY}|tomorrow|tonight|eod|cob|end of (?:the )?(?:day|week))\b`,
  'i',
);
/** Something misbehaving now: "hotel wifi keeps dropping every 10 min", "the build is taking forever". */
const MISBEHAVING =
  /\bkeeps (?:dropping|crashing|failing|freezing|hanging|disconnecting|timing out|breaking|dying|restarting|rebooting|buffering|lagging|erroring)\b|\b(?:is|are|'s|'re) taking (?:forever|ages|so long)\b/i;

/** Why an English user sentence is junk however durable it sounds, or undefined. */
export function englishUserVeto(text: string): Veto | undefined {
  const t = foldInformal(text.trim());
  const bare = t.replace(/(?<!\w)(["'`“‘])[^"'`”’\n]{0,60}[”’"'`](?!\w)/g, 'value').replace(/https?:\/\/\S+/g, 'url');
  if (/\?/.test(bare) && !TAG_QUESTION.test(bare)) return { reason: 'question', detail: 'question mark' };
  if (HYPOTHETICAL.test(t)) return { reason: 'question', detail: 'hypothetical' };
  if (UNMARKED_QUESTION.test(t)) return { reason: 'question', detail: 'no question mark' };
  if (REPORTED.test(t) && !REPORTED_SELF.test(t)) return { reason: 'context-dependent', detail: 'reported speech' };
  if (SARCASM.test(t)) return { reason: 'chatter', detail: 'sarcasm' };
  if (ANAPHORA.test(t) || POINTER.test(t)) return { reason: 'context-dependent', detail: 'anaphora' };
  const talk = talkOfTheMoment(t);
  if (talk) return talk;
  // "or was that the old team's rule", "or use: ...": the rest of the last message.
  if (/^or\b/i.test(t)) return { reason: 'context-dependent', detail: 'continuation' };
  if (RIGHT_NOW.test(t) || (MISBEHAVING.test(t) && !statesUserChange(t))) return { reason: 'passing-state', detail: 'right now' };
  if (DEADLINE.test(t) && !/\b(?:every|each)\b/i.test(t)) return { reason: 'passing-state', detail: 'deadline' };
  const branch = featureBranchVeto(t);
  if (branch) return branch;
  if (SELF_TALK.test(t)) return { reason: 'chatter', detail: 'self-talk' };
  if (COMPLAINT.test(t)) return { reason: 'chatter', detail: 'complaint' };
  if (/,\s*(?:what's|what is|how do|how to|where's|where is|which one)\b|\bwhat'?s (?:up|wrong|going on) with (?:that|this|it)\b/i.test(t))
    return { reason: 'question', detail: 'question clause' };
  // "ripped jest out this week": when the change happened, not a state that passes.
  if ((/\brn\b/.test(text) || MOMENT.test(t) || (WEAK_MOMENT.test(t) && !STANDING.test(t) && !statesUserChange(t))) && !pinsVersionNow(t))
    return { reason: 'passing-state', detail: 'moment' };
  // "No data is showing up", "nothing is loading": what the screen shows now.
  if (/^(?:no|nothing)\b[^.?]{0,40}\b(?:is|are)\s+\w+ing\b/i.test(t)) return { reason: 'passing-state', detail: 'status' };
  if (
    /\bjust\s+(?:\w+ed|fell|got|did|went|ran|came|broke|had|saw|took|found|lost|woke|ate|spent|paid|bought)\b/i.test(t) &&
    !statesUserChange(t)
  )
    return { reason: 'passing-state', detail: 'just happened' };
  return undefined;
}
