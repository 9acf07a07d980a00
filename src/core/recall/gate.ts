/**
 * Adaptive gate for automatic recall: decides whether a user turn is worth a memory search.
 * Injecting memories into "ok thanks" or "git status" costs tokens and invites the model to act
 * on stale context, so those are skipped; explicit recall phrases always search. Explicit
 * searches (tools, CLI) never go through this gate.
 */
import { cleanQuery } from './query-cleanup.js';
import { containsCjk } from './tokens.js';

export interface GateDecision {
  recall: boolean;
  /** Short machine-readable reason, e.g. `acknowledgement`, `forced:recall-phrase`. */
  reason: string;
}

const FORCE_PATTERNS: RegExp[] = [
  /\b(remember|recall|remind me)\b/i,
  /\b(last time|previously|earlier (you|i|we)|the other day|as i (said|mentioned))\b/i,
  /\bwhat (did|do|have) (i|we) (say|said|tell|told|mention|decide|decided|agree|agreed|choose|chose|use|pick)/i,
  /\b(did|have) i (ever )?(tell|told|mention|mentioned|say|said)\b/i,
  /\bi (told|mentioned to|said to) you\b/i,
  /\b(what'?s|what is|do you know) my\b/i,
  /\bmy (name|e-?mail|phone( number)?|address|birthday|username)\b/i,
  /\bwho am i\b/i,
  // German
  /\b(erinnerst du|weißt du noch|letztes mal|vorhin|mein name|meine e-?mail)\b/i,
  // Chinese
  /记得|记住|还记得|上次|之前|以前|我说过|我提到过|我告诉过|我讲过|我的名字|我叫什么|我的邮箱|我的电话/,
];

const GREETING =
  /^(hi|hello|hey|heya|hiya|yo|howdy|sup|greetings|good (morning|afternoon|evening|night)|gm|gn|hallo|bonjour|hola|你好|您好|嗨|哈喽|早上好|下午好|晚上好|早安|晚安|早)([\s,]+(there|all|everyone|again|claude|assistant|bot|team))?[\s!.,~。！，…]*$/iu;

const ACK_WORDS =
  '(ok(ay)?|k|sure|yes|yep|yeah|yup|no|nope|thanks?|thank you( (so|very) much)?|thx|ty|cheers|cool|great|nice|awesome|perfect|got it|sounds good|makes sense|lgtm|done|alright|all right|fine|understood|continue|go ahead|go on|proceed|keep going|carry on|next|do it|please continue|please proceed|yes please|好的|好|好滴|谢谢|多谢|感谢|谢啦|继续|嗯|行|可以|收到|明白|明白了|没问题|对|是的|知道了|了解)';
// Separators are optional so unspaced Chinese repeats ("继续继续") match too.
const ACK = new RegExp(`^${ACK_WORDS}([\\s,.!~。！，]*${ACK_WORDS})*[\\s,.!~。！，…]*$`, 'iu');

/** Tool names that are not English words: a message starting with one is a command. */
const SHELL_TOOLS =
  'ls|cd|git|npm|npx|pnpm|yarn|pip|pip3|python3?|node|docker|kubectl|curl|wget|grep|rg|sudo|mkdir|rm|mv|cp|chmod|ssh|brew|apt|apt-get|cargo';
/** Verbs that are also prose ("find the notes about..."): a command only if short or shell-like. */
const SHELL_VERBS = 'run|build|test|cat|find|make|tail|head|go';
const SHELL_TOOL_START = new RegExp(`^\\$?\\s*(${SHELL_TOOLS})(\\s|$)`, 'i');
const SHELL_VERB_START = new RegExp(`^\\$?\\s*(${SHELL_VERBS})(\\s|$)`, 'i');
/** Characters that rarely occur in prose but constantly in commands. */
const SHELL_SYNTAX = /(^|\s)(-{1,2}[a-z]|\.{0,2}\/|~\/)|[|&;<>$=`]/i;

const EMOJI_ONLY = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f|[\s!.?,])+$/u;

/** Decides whether automatic recall should run for one user turn. */
export function shouldRecall(options: { text: string }): GateDecision {
  const text = cleanQuery({ text: options.text }).text;
  if (text.length === 0) return { recall: false, reason: 'empty' };
  if (text.startsWith('/')) return { recall: false, reason: 'slash-command' };
  if (/^\[System\b/i.test(text)) return { recall: false, reason: 'system-message' };
  if (/\bHEARTBEAT\b|^NO_REPLY$/.test(text)) return { recall: false, reason: 'heartbeat' };

  const chars = [...text].length;
  if (chars < 5) return { recall: false, reason: 'too-short' };
  if (FORCE_PATTERNS.some((pattern) => pattern.test(text))) return { recall: true, reason: 'forced:recall-phrase' };

  const hasQuestion = /[?？]/.test(text);
  if (GREETING.test(text)) return { recall: false, reason: 'greeting' };
  // Length cap: acknowledgements are short, and it bounds the regex's backtracking on hostile input.
  if (chars <= 60 && ACK.test(text)) return { recall: false, reason: 'acknowledgement' };
  if (EMOJI_ONLY.test(text)) return { recall: false, reason: 'emoji-only' };
  if (!hasQuestion && SHELL_TOOL_START.test(text)) return { recall: false, reason: 'shell-command' };
  if (!hasQuestion && SHELL_VERB_START.test(text)) {
    // "find my notes about the budget" is prose; "make test" or "cat ./notes.md" is a command.
    if (text.split(/\s+/).length <= 3 || SHELL_SYNTAX.test(text)) return { recall: false, reason: 'shell-command' };
  }

  const minChars = containsCjk(text) ? 6 : 15;
  if (!hasQuestion && chars < minChars) return { recall: false, reason: 'short-non-question' };
  return { recall: true, reason: hasQuestion ? 'question' : 'default' };
}
