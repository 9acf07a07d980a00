/**
 * English statements of how someone lives and how a team works, beyond the trigger phrases of
 * rule-patterns.ts and english-user.ts: the plain present ("i commute by train", "the team tracks
 * all work in linear", "priya reviews all my frontend prs"), a set-up noun and its value ("the main
 * app database is postgres"), news told with "now" ("the backend's on fly.io now", "node 20 now"),
 * and the statement people give as the reason for a question ("my tmux prefix is C-a, how do i
 * split panes?"). Patterns read text with informal contractions spelt out (english-user.ts).
 */
/**
 * More changes as people tell them: "caved and switched to zed", "eli switched schools", "finished
 * the move to bristol", "got promoted to senior analyst", "i left fenwick", "upgraded to unlimited
 * data", "stopped fasting", "team voted to go 4 spaces".
 */
const CHANGE_MORE = String.raw`\band\s+(?:switched|moved|changed|migrated)\s+(?:[\w.'-]+\s+){0,5}(?:to|over to|onto)\b|\b(?:switched|changed|moved)\s+(?:schools?|jobs?|teams?|banks?|gyms?|dentists?|doctors?|gps?|vets?|providers?|plans?|carriers?|networks?|suppliers?|insurers?|phones?|cars?|offices?|desks?|clubs?|nurser(?:y|ies)|churches|distros?|editors?|laptops?)\b|\b(?:finished|completed|done with)\s+(?:the|our|my)\s+(?:move|migration|switch|transition|rewrite|port)\s+(?:to|over to|onto)\b|\bgot\s+(?:promoted|a promotion|transferred|moved)\b|\bi\s+(?:left|quit)\s+(?!(?:it|that|this|the|a|an|early|work|home|for|my|off)\b)[\w&.-]+|^(?:(?:also|oh|and|fyi|btw|ok|so|update|finally)[,:\s]+)*(?:just\s+|finally\s+)?(?:upgraded|downgraded)\s+(?:my\s+|our\s+|the\s+)?(?:[\w.'-]+\s+){0,3}to\b|^(?:(?:also|oh|and|fyi|btw|ok|so|update)[,:\s]+)*(?:i\s+)?(?:stopped|quit|gave up)\s+(?!(?:working|responding|loading|running|showing|syncing|building|compiling|it|that|this)\b)\w+ing\b|\b(?:team|we|everyone|they)\s+voted\s+(?:to|for)\b`;

export const CHANGE_MORE_RE = new RegExp(CHANGE_MORE, 'i');

/** Where someone only is for now: "he's at school now", "i'm in a meeting now", "on the train now". */
export const NOT_A_PLACE = String.raw`(?:school|work|home|bed|lunch|dinner|breakfast|class|church|hospital|traffic|(?:my|his|her|our|their) way|the (?:office|gym|shop|store|doctor|dentist|station|airport|hospital|car|bus|train|tube|subway|plane|ferry|road|phone|beach|park|pool|shower|queue|line|pub|bar|cafe|library)|an? (?:meeting|call|standup|interview|break|queue|line|taxi|cab|uber|car|bus|train|plane|flight|hurry|rush)|(?:holiday|vacation|leave|break)|it|that|this|the moment|last)\b`;
/**
 * A state that holds now, told as news: "the backend's on fly.io now", "i'm a data engineer at
 * lumora now", "i report to tomasz now", "the api runs on 5050 locally now".
 */
export const NOW_STATE = new RegExp(
  String.raw`\b(?:i|we|he|she|they|(?:the|our|my)\s+[\w-]+(?:\s+[\w-]+)?)\s*(?:'s|'re|'m|\s(?:is|are|am))\s+(?:on|at|in|with|using|an?)\s+(?!${NOT_A_PLACE})(?:[^,.?!;]|\.(?=\w)){1,40}?\s+now\b` +
    String.raw`|\b(?:i|we|he|she|they)\s+(?:report|meet|work|live|train|commute|bank|shop|cycle|drive|take|use|run|swim|play|go|see|eat|drink|get up|wake up|start|finish|milk|feed|open|close|serve|charge|sell|teach|sing)\s+(?!(?:it|that|this|on it|back|the (?:error|bug|problem|issue|point|difference))\b)(?:[^,.?!;]|\.(?=\w)){1,40}?\s+now\b` +
    String.raw`|\b(?:the|our|my)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:runs|lives|listens|sits|meets|starts|opens|closes|deploys|ships|is hosted|are hosted)\s+(?:[^,.?!;]|\.(?=\w)){1,40}?\s+now\b`,
  'i',
);

/**
 * How someone lives, in the plain present: "i commute by train", "i pay for spotify premium", "i
 * work from home full time", "i mostly fly klm", "i develop on windows with wsl2", "i'm saving for a
 * house deposit".
 */
export const LIFE =
  /\bi\s+(?:usually\s+|mostly\s+|normally\s+|always\s+|still\s+|only\s+|generally\s+)?(?:commute|pay for|subscribe to|fly|catch the|develop (?:on|in|with)|work (?:from home|remotely|remote|part[- ]time|full[- ]time|nights|shifts|weekends|in|at|for|as|on a|with a)|cycle to|bike to|drive to|walk to|get up at|wake up at|go to bed at|sleep|meditate|volunteer|foster|homeschool|rent|lease|bank with|shop at|do my (?:groceries|shopping|banking)|follow (?:a|an|the)|support|donate to)\b|\bi'm\s+(?:saving(?: up)? for|studying (?:for|at)|doing (?:\d+:\d+|keto|paleo|whole30|intermittent|a (?:course|degree|masters|phd|diploma|part-time))|training for|renting|fostering|homeschooling)\b|^(?:(?:fyi|btw|also)[,\s]+)*training for\b|\b(?:we're|we are)\s+(?:an?\s+)?[\w.+#-]+\s+(?:shop|house)\b|\bwe\s+(?:follow|stick to|adhere to|practi[cs]e)\s+(?!(?:it|this|that|them|up|the (?:steps|instructions|guide|plan))\b)[\w-]+/i;

/** What a team or a person runs on: "we're on node 16 for all the backend services", "we're still on heroku for the backend". */
export const ON_PLATFORM =
  /\b(?:we're|we are|i'm|i am)\s+(?:still\s+|currently\s+|all\s+)?on\s+(?!(?:it|that|this|a|an|the|call|leave|holiday|vacation|my|our|track|board|time|top|hold|fire|mute|way|break|lunch|the phone)\b)[\w.+-]+(?:\s+\d[\w.]*)?\s+(?:for|in|across|everywhere)\b/i;

/** Terse news of a value: "fyi: pnpm now", "node 20 now, finally on an lts", "back to linux, fedora on a thinkpad". */
export const TERSE_NEWS =
  /^(?:(?:fyi|btw|ok|so|update|heads up|and)[,:\s]+)*(?![^,.!;]*\b(?:works?|working|done|fixed|good|fine|better|worse|ready|passing|green|broken|failing|live|deployed|merged|pushed|gone|clean|happy|much|way|looks|seems|all|it|this|that|everything|the|a|an|my|our|i|we|you|they|he|she|pass|passes|passing|runs?|compiles?|builds?|loads?|shows?|is|are)\b)[\w.@/+-]+(?:\s+[\w.@/+-]+){0,2}\s+now\s*(?:[,.!;:]|$)|^(?:(?:and|so|ok|fyi|btw)[,\s]+)*(?:we're\s+|i'm\s+)?back to\s+(?!(?:the|it|this|that|work|bed|sleep|normal|square|you|me|my|our|your|basics|school|where|what|how|square one)\b)[\w.-]+/i;

/** A named person and what they do for the user or team: "Priya reviews all my frontend PRs". */
export const THEIR_ROLE =
  /^(?:(?:fyi|btw|also)[,\s]+)*[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?(?:\s+(?:in|from|at|of)\s+[A-Z][\w'-]+|\s*,[^,]{1,30},)?\s+(?:reviews|approves|owns|handles|manages|runs|maintains|signs off|looks after|covers|does)\s+(?:all|every|any|most|our|my|the)\b/;

/** A set-up noun and its one-word value: "the main app database is postgres", "default shell is fish". */
export const SETUP_VALUE =
  /^(?:(?:fyi|btw|also|oh|so|reminder|note)[,:\s]+)*(?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){0,3}(?:database|db|editor|ide|language|stack|framework|orm|cache|queue|broker|cloud|host|hosting|cdn|registry|package manager|shell|os|distro|terminal|browser|default branch|linter|formatter|test runner|bundler|timezone|time zone|bank|carrier|provider|isp|gp|vet|dentist|doctor|school|nursery|gym|airline|phone|laptop)\s+(?:is|are)\s+(?!(?:down|up|slow|broken|fine|ok|okay|good|bad|great|full|empty|new|old|weird|wrong|here|there|gone|done|ready|busy|closed|open|back|out|off|on|still|not|so|too|very|really|just|a|an|the)\b)[\w.+#-]+/i;

/** How a team does a kind of work, with the team or the thing as subject: "the team tracks all work in linear", "the node services log with winston". */
export const TEAM_PRACTICE =
  /^(?:(?:fyi|btw|also|reminder)[,:\s]+)*(?:the team|our team|the company|everyone|we all|(?:the|our|all)\s+(?:[\w-]+\s+){0,2}(?:services|apps|repos|projects|teams|microservices|workers|jobs|lambdas|functions))\s+(?:tracks?|logs?|plans?|documents?|stores?|keeps?|manages?|deploys?|ships?|releases?|talks?|communicates?|chats?|meets?|works?|follows?|uses?)\s+(?!(?:it|this|that|them|a bit)\b)\S+|\b(?:commit messages|commits|branch names|branches|prs|pr titles|tags|releases|versions|changelogs?)\b[^.?]{0,30}\b(?:follow|use|stick to|adhere to)\s+\S/i;

const QUESTION_WORD = String.raw`(?:how|what|what's|whats|where|which|why|when|who|can|could|would|will|should|do|does|did|is|are|any|anything|got(?=\s+(?:any|a (?:sec|second|minute|moment)|time|ideas?|tips?)\b)|mind|is there|are there)\b`;
/** A statement, then a question about it after a comma or a dash: "my tmux prefix is C-a, how do i split panes?". */
const QUESTION_TAIL = new RegExp(
  String.raw`^(.{12,}?)(?:[,;:]|\s[-–—]|\.{2,})\s+(?:(?:so|and|but|ok|anyway|then)\s+)?(?=${QUESTION_WORD})[^?]*\?[?!.\s]*$`,
  'i',
);
/** The same, typed without the "?": "we milk at 6 and 5, can you help me plan the day", "nora drives a yaris, what should the tyres be". */
const UNMARKED_TAIL =
  /^(.{12,}?)(?:,\s+|\s+(?=if you (?:need|want) (?:it|that|them|to know)\b))(?:(?:so|and|but|ok)\s+)?(?:(?:can|could|would|will) (?:you|u)\b|(?:what|how|which|where|why|when) (?:should|do|does|is|are|would|can|could|shall)\b|any (?:ideas?|tips|advice|suggestions|thoughts)\b|(?:should|do|can|could|would|shall) (?:i|we)\b|if (?:that|it) (?:matters|helps)\b|if you (?:need|want) (?:it|that|them|to know)\b|in case (?:that|it) (?:matters|helps)\b|(?:is|are|was|does|do) (?:that|it|this|they) (?:bad|ok|okay|normal|too|a|an|safe|healthy|enough|worth|matter|wrong|right|fine)\b)[^?]*$/i;
/** A standing fact, then what goes wrong with it now: "i use visual studio for unity and intellisense keeps dying". */
const TROUBLE_TAIL =
  /^(.{12,}?)(?:,\s*|\s+)(?:and|but)\s+(?:the\s+|my\s+|our\s+|its\s+)?[\w.-]+(?:\s+[\w.-]+)?\s+(?:keeps|kept|started|is|are|'s)\s+(?:\w+ing|crashing|broken|dead|slow)\b/i;
const QUESTION_START = new RegExp(
  String.raw`^(?:(?:ok|so|and|but|hey|hi|also|quick q|quick question|btw)[,:\s]+)*(?:${QUESTION_WORD}|if\b|whether\b|wondering\b|not sure\b|idk\b|i (?:wonder|was wondering|'m wondering)\b)`,
  'i',
);

/**
 * The statement a user sentence makes before it asks something ("as i said our frontend's next.js
 * w/ the app dir, so where should server actions go?"): people give the fact as the reason for their
 * question. Undefined when the sentence is not a statement followed by a question.
 */
export function statementBeforeQuestion(sentence: string): string | undefined {
  const m = QUESTION_TAIL.exec(sentence.trim()) ?? UNMARKED_TAIL.exec(sentence.trim()) ?? TROUBLE_TAIL.exec(sentence.trim());
  const head = m?.[1]?.trim();
  // "this is what we had before, can you make it like that again?": the statement points at the conversation.
  if (!head || QUESTION_START.test(head) || head.includes('?') || /^(?:this|that|it|these|those|here|there)\b/i.test(head))
    return undefined;
  return head;
}

/**
 * What a household, farm or business supplies and charges and whom it deals with: "we supply the
 * milk to kerry dairy", "we charge €90 a night", "we support ios 15 and up", "we're with electric
 * ireland for the house", "we're in the ACRES scheme", "meal and fertiliser come from the Kerry
 * Agribusiness store in Farranfore".
 */
export const WE_TRADE =
  /\bwe\s+(?:only\s+)?(?:support|target|charge|supply|sell|stock|offer|breed|rear|milk|farm|grow)\s+(?!(?:it|this|that|them|you|him|her)\b)\S|\b(?:we're|we are|i'm|i am)\s+(?:still\s+)?with\s+(?!(?:you|them|him|her|it|the kids|family|friends)\b)[\w.&'-]+(?:\s+[\w.&'-]+){0,2}\s+for\s+(?:the|our|my|all|both)\b|\b(?:we're|we are|i'm|i am)\s+(?:still\s+)?in\s+the\s+[\w-]+\s+(?:scheme|programme|program|union|co-?op|cooperative|choir|league)\b|\b(?:we're|we are)\s+(?:targeting|aiming (?:for|at))\s+(?!(?:the|a|an|this|that|it|them)\b)\S/i;

/** Where the things a household or business buys come from, from a named place or person (not where an error comes from). */
export const SUPPLIED_FROM =
  /^(?:(?:fyi|btw|also)[,\s]+)*(?:the\s+|our\s+|my\s+|all\s+(?:the\s+|our\s+)?)?(?!(?:it|this|that|everything|nothing)\b)[\w-]+(?:\s+(?:and|&)\s+[\w-]+)?(?:\s+[\w-]+)?\s+(?:comes?|come)\s+from\s+(?![^.]*\b(?:error|bug|issue|problem|warning|exception|crash|leak|message|noise)s?\b)[^.]{0,30}?\b[A-Z]/;

/** Someone's car or bike: "Nora drives a toyota yaris". Case matters. */
export const THEIR_VEHICLE = /^(?:(?:fyi|btw|also)[,\s]+)*\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?\s+(?:drives|owns|rides)\s+an?\s+[\w-]+/u;

/** What guests or customers may do and when: "guests can check in from 3 in the afternoon". */
export const WINDOW_POLICY =
  /^(?:(?:fyi|btw|also|reminder)[,:\s]+)*(?:the\s+|our\s+)?(?:guests|customers|visitors|clients|patients|students|staff|members|users)\s+can\s+[\w -]{2,20}?\s+(?:from|until|till|after|before|between)\s+\d/i;

/** When or by whom a thing gets looked after: "the jeep gets serviced by a lad in killorglin", "the sheep get dosed for fluke in october". */
export const UPKEEP =
  /^(?:(?:fyi|btw|also)[,\s]+)*(?:the|our|my|all the|all our)\s+[\w -]{2,30}?\s+(?:gets?|are|is)\s+(?:serviced|dosed|vaccinated|wormed|sheared|inspected|cleaned|checked|renewed|rotated|tested)\b[^.?]{0,30}?\b(?:by\s+\S|every|each|once|twice|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter))/i;

/**
 * "dev auth0 domain is still northquay-dev.eu.auth0.com", "my eating window is still 12 to 8": "still"
 * before a value says it has not changed, unlike "the build is still failing".
 */
export const STILL_VALUE =
  /^(?:(?:yeah|yes|so|and|fyi|btw)[,\s]+)*(?:the\s+|our\s+|my\s+)?[\w.'-]+(?:\s+[\w.'-]+){0,4}\s+(?:is|are)\s+still\s+(?!(?:\w+ing|broken|down|up|slow|stuck|there|here|open|closed|missing|empty|wrong|red|pending|not|a problem|an issue|on fire|out|off|bad|weird|flaky)\b)[\w.:'@/-]+/i;

/** A thing pinned to a version or deployed from a branch: "the old retail app is stuck on 0.68", "web dashboard deploys straight from main". */
export const PINNED =
  /\b(?:is|are)\s+(?:stuck|pinned|frozen|locked)\s+(?:on|at|to)\s+(?:v|version\s+)?\d|^(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s+(?:deploys|ships|releases|syncs|publishes)\s+(?:straight\s+|automatically\s+|directly\s+)?(?:from|to|on)\s+[\w.-]+/i;

/**
 * A request that holds for every case it names, not this once: "aisle seat for anything over 2
 * hrs please", "type hints on every public function please", "for anything medical give me sources
 * please", "client wants british english in all UI text", "dont touch anything under /legacy",
 * "tables plural ... no exceptions", "no payday loans or bnpl suggestions ever", "call me raj".
 */
export const STANDING_REQUEST =
  /\b(?:for|on|in|with|to)\s+(?:anything|everything|every|all|any|each)\b[^.?]{0,60}\bplease\b|^(?:please\s+)?[^.?,]{0,60}\b(?:for|on|in|with|to)\s+(?:anything|everything|every|all|any|each)\b[^.?,]{0,40},?\s*please\b|\b(?:wants?|needs?|expects?|requires?)\s+[^.?,]{1,40}\s+(?:in|on|for)\s+(?:all|every|any)\s+\w+|\bdon't\s+(?:touch|edit|change|modify|delete|refactor|reformat)\s+anything\s+(?:in|under|inside|within)\b|\bno exceptions\b|^no\s+[^.?]{2,60}\s+ever\b|^(?:please\s+)?call me\s+[a-z]+\b(?!\s+(?:back|later|when|if|at|tomorrow))/i;

/** A goal with a horizon: "we're saving for a house deposit, target 60k", "i'm self employed, sole trader". */
export const STANDING_SITUATION =
  /\b(?:i'm|i am|we're|we are)\s+(?:saving (?:up )?for|paying off|self[- ]employed|a sole trader|freelance|a freelancer|a contractor|retired|semi[- ]retired|on a (?:student|work|skilled|spouse) visa)\b/i;
