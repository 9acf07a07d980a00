import { spellOutHedges, spellOutShorthand, spellOutShorthandEs } from './chat-shorthand.js';
import { stripPreamble } from './source-policy.js';
import { looksSpanish, normalizeSpanish } from './spanish.js';
import { withoutPresentMark } from './version-now.js';

/**
 * Turns a sentence a person typed into a clean standalone memory: lead-ins and leftovers removed
 * ("ok, btw", "please remember that", "just so you know", trailing "btw."/"thanks"), intensifiers
 * and swearing dropped, the speaker's first person turned into "The user" (the voice LLM-written
 * memories use, so both paths store comparable text), "don't ever" made "never", and the sentence
 * capitalised and closed with a full stop. Chinese keeps its wording; only lead-ins are removed.
 */
const LEAD_IN =
  /^(?:(?:ok(?:ay)?|k|kk|fwiw|tbh|tbf|imo|imho|ngl|oh|hey|hi|so|and|also|plus|btw|by the way|fyi|for the record|for future reference|ps|p\.s\.|note|nb|alright|right|well|actually|yeah|yes|anyway|anyways|hmm+|hm|um+|uh+|oh and|just so you know|just fyi|heads up|quick note|one more thing|omfg|omg|dude|my dude|man|guys)\b[,:.!-]*\s+)+/i;
const REMEMBER =
  /^(?:(?:please|pls|and)\s+)?(?:remember|note|don't forget|do not forget|keep in mind|make a note|bear in mind|never forget|(?:just\s+)?(?:a\s+)?(?:quick\s+|friendly\s+|gentle\s+)?reminder)(?:\s+(?:this|that|the following))?(?:\s*[:,-]\s*|\s+that\s+|\s+)/i;
const FIRST_PERSON_PREAMBLE =
  /^(?:i (?:just )?(?:want|wanted|need|needed|'d like|would like) (?:you )?to (?:know|remember|note|mention|say|tell you|point out|let you know|make (?:it )?clear)(?: that)?|i should (?:mention|say|tell you|point out|note)(?: that)?|let me (?:tell you|remind you|be clear|mention)(?: that)?|i'?m telling you(?: that)?|you should know(?: that)?|for your information|fyi|to be clear|(?:as|like) i (?:said|mentioned|told you)(?: before| earlier)?|as mentioned(?: before| earlier)?|i (?:think|guess|believe|suppose|feel like|reckon)(?: that)?|(?:(?:i'?m\s+)?(?:gonna|going to)|i'll|i will|let me) (?:say|repeat) (?:this|it) (?:once|one (?:more|last) time|again)(?: and for all)?|saying (?:this|it) (?:once|again)(?: and for all)?|(?:let me|i'll|i will) repeat(?: (?:this|it|myself))?)[,:]?\s+/i;
const TRAILING =
  /(?:[\s,;]+(?:btw|by the way|fyi|thanks|thank you|thx|ty|please|pls|ok|okay|k|lol|lmao|haha+|hehe+|ugh+|xd|tbh|tbf|imo|imho|ngl|:\)|;\)|🙂|😉|👍|😂|🤣))+\s*[.!?]*$/i;
const INTENSIFIER = /\b(?:fucking|fuckin|freaking|frickin|damn|bloody|goddamn|effing)\s+/gi;

const ZH_LEAD_IN = /^(?:(?:另外|还有|对了|顺便说一下|顺便|补充一下|补充|提醒一下|注意|嗯|哦|好的|那个)[，,、：:\s]*)+/;
const ZH_REMEMBER = /^(?:请)?(?:记住|记得|别忘了|不要忘记|牢记)[:：，,\s]*/;

// Irregular third-person forms; regular verbs take -s / -es / -ies.
const THIRD_PERSON: Record<string, string> = {
  have: 'has',
  do: 'does',
  go: 'goes',
  am: 'is',
  be: 'is',
  "'m": 'is',
  "'ve": 'has',
  was: 'was',
};
const MODALS = new Set([
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'must',
  'may',
  'might',
  "can't",
  'cannot',
  "won't",
  "don't",
  "didn't",
  "haven't",
  "wasn't",
  'did',
  'had',
  'used',
]);
const ADVERB =
  /^(?:always|never|usually|often|sometimes|generally|mostly|really|strongly|also|still|just|only|now|no longer|much|rather|definitely|absolutely|typically|normally|mainly|primarily|even|seldom|almost|already|kinda|sorta)$/i;

/** Verbs that end in "-ly" like an adverb: "I rely on", "I apply". */
const LY_VERBS = /^(?:apply|rely|reply|supply|comply|imply|multiply|fly|rally|tally|bully|ally|sully|dally|belly)$/i;

/** "I basically live on coffee": an adverb between "I" and the verb is not the verb. */
function isAdverb(word: string): boolean {
  return ADVERB.test(word) || (/^[a-z]{2,}ly$/i.test(word) && !LY_VERBS.test(word));
}

const IRREGULAR_PAST = new Set([
  'was',
  'were',
  'had',
  'did',
  'went',
  'got',
  'made',
  'left',
  'began',
  'took',
  'chose',
  'ran',
  'wrote',
  'said',
  'set',
  'put',
  'bought',
  'came',
  'became',
  'found',
  'kept',
  'sold',
  'quit',
  'thought',
  'told',
  'grew',
  'gave',
  'knew',
  'met',
  'paid',
  'spent',
  'stood',
  'understood',
]);

export function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  if (/ed$/.test(lower) || IRREGULAR_PAST.has(lower) || !/^[a-z']+$/.test(lower)) return lower;
  if (THIRD_PERSON[lower]) return THIRD_PERSON[lower]!;
  if (MODALS.has(lower)) return lower === "don't" ? "doesn't" : lower === "haven't" ? "hasn't" : lower;
  if (/(?:s|sh|ch|x|z|o)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** "I always run X" -> "The user always runs X"; "my editor is Y" -> "The user's editor is Y". */
export function toThirdPerson(sentence: string): string {
  let s = sentence;
  const m = /^(i)(?:'m|'ve|\s+)(.*)$/i.exec(s);
  if (/^i'm\b/i.test(s)) s = s.replace(/^i'm\b/i, 'The user is');
  else if (/^i've\b/i.test(s)) s = s.replace(/^i've\b/i, 'The user has');
  else if (/^i'd rather\b/i.test(s)) s = s.replace(/^i'd rather\b/i, 'The user would rather');
  else if (/^i'd\b/i.test(s)) s = s.replace(/^i'd\b/i, 'The user would');
  else if (m) {
    const words = m[2]!.split(/\s+/);
    let i = 0;
    while (i < words.length && (isAdverb(words[i]!) || (/^no$/i.test(words[i]!) && /^longer$/i.test(words[i + 1] ?? ''))))
      i += /^no$/i.test(words[i]!) ? 2 : 1;
    if (i < words.length) {
      // "I no longer use" keeps "no longer"; the first real verb is conjugated.
      words[i] = thirdPersonVerb(words[i]!);
      s = `The user ${words.join(' ')}`;
    }
  } else if (/^my\s/i.test(s)) s = s.replace(/^my\s/i, "The user's ");
  // The rest of the sentence: "my" -> "their", "me" -> "them", "myself" -> "themselves".
  return (
    s
      // Inside a name ("oh-my-zsh", "my-app") the word stays.
      .replace(/(?<![\w-])my(?![\w-])/gi, 'their')
      .replace(/(?<![\w-])mine(?![\w-])/gi, 'theirs')
      .replace(/\bmyself\b/gi, 'themselves')
      .replace(
        /(?<=\b(?:to|for|with|from|tell|tells|told|ask|asks|asked|remind|give|gives|gave|send|sends|sent|show|call|calls|called|let|help|at|about|wants|want|needs|need|expects)\s)me\b/gi,
        'them',
      )
      // People type the pronoun in lower case too ("so when i ask"); "i.e." and "(i)" are not it.
      .replace(/(?<![\w.(])[Ii](?:'m| am)(?![\w.'])/g, 'they are')
      .replace(/(?<![\w.(])[Ii] was(?![\w.'])/g, 'they were')
      .replace(/(?<![\w.(])[Ii]'(ve|d|ll)(?![\w.'])/g, "they'$1")
      .replace(/(?<![\w.(])[Ii](?![\w.')])/g, 'they')
  );
}

function finish(text: string): string {
  let t = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[-*•:;,]+\s*/, '');
  t = t
    .replace(/\s*(?:\.{2,}|…)\s*$/, '')
    .replace(/[,;:\s-]+$/, '')
    .replace(/\s+([.!?])$/, '$1')
    .replace(/!+$/, '.');
  if (t === '') return t;
  // "setTheme should ..." keeps its identifier; ordinary words are capitalised.
  if (!/^[a-z]+[A-Z0-9_.\-/]/.test(t)) t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?。！？)"'`]$/.test(t) ? t : `${t}.`;
}

/** The cleaned, standalone form of one sentence. */
/** A generic label in front of a statement in notes and summaries ("Issue: X doesn't support Y"). */
const LABEL =
  /^(?:[-*•]\s+)?(?:issue|fix|error|note|nb|explanation|lesson|lesson learned|cause|root cause|solution|warning|impact|result|finding|rule|preference|decision|fact|tip|important|key point|reminder)\s*[:：-]\s+/i;

/**
 * "The queue view doesn't adhere to the invariant that every line must fit the width": a report of one
 * breach around a standing rule. The rule is what lasts; the breach is this task's bug.
 */
const BROKEN_RULE =
  /^.{1,80}?\b(?:(?:doesn'?t|does not|don'?t|do not|didn'?t|did not)\s+(?:adhere to|follow|respect|obey|honou?r|satisfy|meet)|violates|breaks)\s+(?:the|our|this|that|a)\s+(?:invariant|rule|convention|contract|requirement|constraint|guideline)\s+that\s+(.+)$/i;

function ruleOfBreach(text: string): string {
  const rule = BROKEN_RULE.exec(text)?.[1];
  return rule && /\b(?:must|should|never|always|may not|has to|have to)\b/i.test(rule) ? rule : text;
}

export function normalizeStatement(sentence: string, options: { thirdPerson?: boolean } = {}): string {
  let t = ruleOfBreach(
    stripPreamble(
      sentence
        .trim()
        .replace(/^[-*•]\s+/, '')
        .replace(LABEL, ''),
    ),
  );
  if (/[\u3400-\u9fff]/.test(t)) {
    t = t.replace(ZH_LEAD_IN, '').replace(ZH_REMEMBER, '').replace(ZH_LEAD_IN, '').trim();
    return t.replace(/[，,；;：:\s]+$/, '').replace(/(?<![。！？!?])$/, '。');
  }
  if (looksSpanish(t)) return normalizeSpanish(options.thirdPerson !== false ? spellOutShorthandEs(t) : t);
  for (let pass = 0; pass < 3; pass++) {
    const before = t;
    t = t.replace(LEAD_IN, '').replace(REMEMBER, '').replace(FIRST_PERSON_PREAMBLE, '').trim();
    if (t === before) break;
  }
  t = withoutPresentMark(t).replace(TRAILING, '').replace(INTENSIFIER, '');
  t = t
    .replace(/\bdon'?t ever\b/gi, 'never')
    .replace(/\bdo not ever\b/gi, 'never')
    .replace(/\bnever ever\b/gi, 'never');
  // A user's chat shorthand is spelt out in what is stored; agents and summaries write in full.
  if (options.thirdPerson !== false) t = spellOutHedges(toThirdPerson(spellOutShorthand(t)));
  return finish(t);
}
