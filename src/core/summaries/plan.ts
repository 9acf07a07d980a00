/**
 * Which messages form the next chunk. Pure: the same log and index always give the same chunk.
 *
 * Rules (oldest unsummarised messages first, in log order):
 * - A message is eligible once at least `boundaryTokens` tokens of its session come after it.
 * - A chunk is cut on message boundaries and closes when it reaches `chunkTokens`, or when the next
 *   unsummarised message (eligible or not) would push it past `chunkTokens`. A single message
 *   larger than `chunkTokens` is a chunk of its own.
 * - A trailing partial chunk (eligible messages that have not closed a chunk yet) always waits:
 *   the boundary moves as the session grows, and the chunk closes once enough messages are
 *   eligible. So every chunk is as large as the rules allow, and when a run happens never changes
 *   how the history is cut. The newest `boundaryTokens` of a session (plus at most one partial
 *   chunk) stay raw, which is what the host still has in its own context.
 */
import type { SessionMessage } from './l0-sessions.js';

export type ChunkDecision =
  | { kind: 'chunk'; messages: SessionMessage[]; tokens: number }
  | { kind: 'wait'; reason: 'nothing-old-enough' | 'partial-chunk-waiting'; messages: number; tokens: number };

export function nextChunk(options: {
  messages: SessionMessage[];
  done: ReadonlySet<string>;
  boundaryTokens: number;
  chunkTokens: number;
}): ChunkDecision {
  const { messages, done, boundaryTokens, chunkTokens } = options;
  const after = new Array<number>(messages.length);
  let suffix = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    after[i] = suffix;
    suffix += messages[i]!.tokens;
  }
  const chunk: SessionMessage[] = [];
  let tokens = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (done.has(m.key)) continue;
    if (chunk.length > 0 && tokens + m.tokens > chunkTokens) return { kind: 'chunk', messages: chunk, tokens };
    if ((after[i] ?? 0) < boundaryTokens) break;
    chunk.push(m);
    tokens += m.tokens;
    if (tokens >= chunkTokens) return { kind: 'chunk', messages: chunk, tokens };
  }
  return chunk.length === 0
    ? { kind: 'wait', reason: 'nothing-old-enough', messages: 0, tokens: 0 }
    : { kind: 'wait', reason: 'partial-chunk-waiting', messages: chunk.length, tokens };
}
