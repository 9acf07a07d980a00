import type { L0Record } from '../../spec/conversation.js';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import { isNarration } from './noise-signals.js';
import { LESSON_TRIGGERS } from './rule-patterns.js';
import { proseSentences } from './sentences.js';
import { isHostNoise } from './structure-signals.js';
import { countTokens } from './tokens.js';

/**
 * The extraction prompt and how conversation is packed into it. Messages are written compactly:
 * a `[n role hh:mm]` line, then the text as is (no JSON escaping, no long ids: the model cites `n`
 * and the caller maps it back). Content is shaped for what extraction needs: user messages whole up
 * to a cap, assistant messages as a digest (their opening and any sentence stating a rule or a
 * lesson; pure narration is left out), compaction summaries without their code and boilerplate.
 * Chunks are measured with the real tokenizer and never exceed their budget.
 */
export const EXTRACTION_SYSTEM_PROMPT = `You distill a conversation between a user and an AI agent into long-term memories.
Return only facts worth remembering in future, unrelated sessions: stable preferences, facts about the user or
their projects, rules the user sets, decisions, and lessons learned. Each memory is ONE atomic, self-contained
statement (at most 500 characters) written in the third person ("The user prefers ..."), in the language of the
conversation. Do not keep: greetings, chatter, questions, requests for the current task, what was done or found in
this session (edits, installs, commits, runs and their results), plans and next steps, general knowledge about
public tools, tool output, recalled memory blocks, secrets (keys, passwords, tokens), or anything only meaningful
inside this conversation. A request for this task is not a standing rule: write "always" or "never" only when the
user said it lasts. The agent's guesses, hypotheses and diagnoses are not facts until the conversation confirms them;
a value or a choice changed later in the conversation is kept only in its final form.
Messages appear as "[n role hh:mm]" followed by the text; role "summary" is an earlier summary of the same
conversation. Assistant messages are shortened.
For each memory give: category (${MEMORY_CATEGORIES.join(', ')}); importance and confidence in [0,1]; scope
"global" for facts about the user that every agent should know, "agent" for things specific to this agent's work;
temporal "static" (stays true) or "dynamic" (may change); validFrom as an ISO date when the conversation states
when it became true, else null; sourceMessageIds: the numbers n of the messages it comes from, as strings;
keywords: 3-8 search keywords, including Chinese forms for Chinese content and English forms for technical terms.
When one conversation changes something it stated earlier, keep only the final state. When messages come from
several conversations, never merge facts across them; each memory's sourceMessageIds come from one conversation.
When nothing is worth keeping, return {"memories": []}.`;

/** Tokens of a session header line ("## Conversation 2 (2026-01-12)") and its newline, rounded up. */
const HEADER_COST = 16;
const USER_CAP = 1600;
const SUMMARY_CAP = 4000;
const ASSISTANT_OPENING = 220;
const ASSISTANT_CAP = 520;
const RULE_OR_LESSON =
  /\b(?:always|never|must|should(?:n't)? (?:always|never)|don'?t|prefer|instead of|because|root cause|turns out|turned out|means|known issue|not supported|doesn'?t support|only (?:accepts?|supports?|has)|decided|the fix)\b/i;

function withoutBlocks(text: string): string {
  return text
    .replace(/```[^\n]*\n([\s\S]*?)(?:```|$)/g, (_m, body: string) => `[code, ${body.split('\n').length} lines]`)
    .replace(/(?:^\s*\|.*\|\s*$\n?){2,}/gm, (m) => `[table, ${m.trim().split('\n').length} rows]\n`);
}

function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  const tail = Math.floor(max * 0.2);
  return `${text.slice(0, max - tail)} …[${text.length - max} chars cut]… ${text.slice(-tail)}`;
}

/** What extraction sees of an assistant message: its opening and any rule or lesson it states. */
function assistantDigest(text: string): string {
  const sentences = proseSentences(withoutBlocks(text));
  if (sentences.length === 0) return '';
  const picked: string[] = [];
  let length = 0;
  for (const [i, s] of sentences.entries()) {
    const opening = i === 0 || length + s.length <= ASSISTANT_OPENING;
    const marked = RULE_OR_LESSON.test(s) || LESSON_TRIGGERS.some((t) => t.pattern.test(s));
    if ((opening && length < ASSISTANT_OPENING) || (marked && length + s.length <= ASSISTANT_CAP)) {
      picked.push(s);
      length += s.length + 1;
    }
  }
  // A message that only announces the next step says nothing extraction can use.
  if (picked.length === 1 && sentences.length <= 2 && isNarration(picked[0]!) && !RULE_OR_LESSON.test(picked[0]!)) return '';
  return cap(picked.join(' '), ASSISTANT_CAP);
}

function baseShape(record: L0Record): string {
  const text = record.content.trim();
  if (record.role === 'assistant') return assistantDigest(text);
  if (record.role === 'summary') {
    const lines = withoutBlocks(text)
      .split('\n')
      .filter((l) => l.trim() !== '' && !isHostNoise(l));
    return cap(lines.join('\n'), SUMMARY_CAP);
  }
  return cap(text, USER_CAP);
}

/**
 * The text of one message as the prompt carries it ('' when it carries nothing). With `maxTokens`,
 * a message too large to fit a chunk on its own is cut until its rendered form fits.
 */
export function shapeContent(record: L0Record, maxTokens?: number): string {
  let content = baseShape(record);
  if (!content || maxTokens === undefined) return content;
  const limit = Math.max(32, maxTokens - HEADER_COST);
  let cost = countTokens(renderMessage(999, record, content)) + 1;
  while (cost > limit && content.length > 16) {
    content = `${content.slice(0, Math.floor(content.length * Math.min(0.9, limit / cost)))} …[cut]`;
    cost = countTokens(renderMessage(999, record, content)) + 1;
  }
  return content;
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

export function renderMessage(n: number, record: L0Record, content: string): string {
  return `[${n} ${record.role} ${clock(record.timestamp)}]\n${content}`;
}

function sessionHeader(index: number, count: number, first: L0Record): string {
  const day = new Date(first.timestamp).toISOString().slice(0, 10);
  return count > 1 ? `## Conversation ${index + 1} (${day})` : `## Conversation (${day})`;
}

export interface RenderedBatch {
  text: string;
  /** Message number as cited by the model -> the record. */
  refs: Map<string, L0Record>;
}

/** The user part of the extraction prompt for `messages` (one or more sessions, in order). */
export function renderBatch(messages: L0Record[], options: { maxTokens?: number } = {}): RenderedBatch {
  const sessions = [...new Set(messages.map((m) => m.sessionKey))];
  const refs = new Map<string, L0Record>();
  const parts: string[] = [];
  let n = 0;
  for (const [i, key] of sessions.entries()) {
    const own = messages.filter((m) => m.sessionKey === key);
    parts.push(sessionHeader(i, sessions.length, own[0]!));
    for (const m of own) {
      const content = shapeContent(m, options.maxTokens);
      if (!content) continue;
      n++;
      refs.set(String(n), m);
      parts.push(renderMessage(n, m, content));
    }
  }
  return { text: parts.join('\n'), refs };
}

/** Tokens one message adds to a batch within `maxTokens` (an upper bound: joining only merges tokens). */
export function messageCost(record: L0Record, maxTokens?: number): number {
  const content = shapeContent(record, maxTokens);
  return content ? countTokens(renderMessage(999, record, content)) + 1 : 0;
}

/**
 * Splits one session's messages into chunks whose rendered text stays within `maxTokens` (a
 * message too large for any chunk is rendered cut to fit). Messages that carry nothing for
 * extraction (narration-only assistant turns) still belong to the chunk, so they are marked done.
 */
export function chunkMessages(options: { messages: L0Record[]; maxTokens: number }): L0Record[][] {
  const limit = Math.max(64, options.maxTokens - HEADER_COST);
  const chunks: L0Record[][] = [];
  let current: L0Record[] = [];
  let tokens = 0;
  for (const m of options.messages) {
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'summary') continue;
    const cost = messageCost(m, options.maxTokens);
    if (current.length > 0 && tokens + cost > limit) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(m);
    tokens += cost;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Packs consecutive chunks (several short sessions) into batches within `maxTokens`; a chunk is never split. */
export function packChunks(options: { chunks: L0Record[][]; maxTokens: number }): L0Record[][] {
  const packs: L0Record[][] = [];
  let current: L0Record[] = [];
  let tokens = 0;
  for (const chunk of options.chunks) {
    const t = chunk.reduce((sum, m) => sum + messageCost(m, options.maxTokens), 0) + HEADER_COST;
    if (current.length > 0 && tokens + t > options.maxTokens) {
      packs.push(current);
      current = [];
      tokens = 0;
    }
    current = current.concat(chunk);
    tokens += t;
  }
  if (current.length > 0) packs.push(current);
  return packs;
}
