import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeReader } from '../../src/capture/readers/index.js';
import type { ConversationMessage, TranscriptFile } from '../../src/spec/conversation.js';
import { REAL_TRANSCRIPTS, readRealTranscript, transcriptPath } from '../../bench/lib/real-transcripts.js';

/**
 * Sources on the real transcripts in ../shared/fixtures (issue 14.4): compaction summaries reach
 * L0 as role `summary`; Claude Code `queue-operation` lines are read by their real shapes: task
 * notifications (enqueue) and bare dequeues add nothing, and a message typed while the agent works
 * is captured once, in order, whichever way the host delivers it afterwards.
 */
const byId = (id: string) => REAL_TRANSCRIPTS.find((t) => t.id === id)!;
const present = REAL_TRANSCRIPTS.every((t) => existsSync(transcriptPath(t)));

function lines(id: string): string[] {
  return readFileSync(transcriptPath(byId(id)), 'utf8')
    .split('\n')
    .filter((l) => l.trim());
}

function parse(rawLines: string[]): ConversationMessage[] {
  const file: TranscriptFile = { host: 'claude-code', path: '', agentId: 'cc', sessionKey: 'k', sessionId: 's' };
  const parser = claudeCodeReader.createParser(file);
  const out: ConversationMessage[] = [];
  for (const l of rawLines) out.push(...parser.line(l).messages);
  out.push(...parser.end());
  return out;
}

describe.skipIf(!present)('sources on the real transcripts', () => {
  it('keeps the Claude Code compaction summary (isCompactSummary, cc-mac L483) as role summary', () => {
    const summaries = readRealTranscript(byId('cc-mac')).filter((m) => m.role === 'summary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.line).toBe(483);
    expect(summaries[0]!.content).toMatch(/^This session is being continued/);
    expect(summaries[0]!.content).toContain('make sure gitleaks is set to max strict');
  });

  it('real queue-operation shapes add no message: task-notification enqueues and bare dequeues', () => {
    const raw = lines('cc-windows');
    const queue = raw
      .filter((l) => l.includes('"type":"queue-operation"'))
      .map((l) => JSON.parse(l) as { operation: string; content?: string });
    expect(queue.map((q) => q.operation)).toEqual(['enqueue', 'dequeue', 'enqueue', 'enqueue', 'dequeue', 'dequeue', 'enqueue', 'dequeue']);
    expect(queue.filter((q) => q.operation === 'enqueue').every((q) => q.content?.startsWith('<task-notification>'))).toBe(true);
    const withQueue = parse(raw).filter((m) => m.role === 'user' && !m.flags.meta);
    const withoutQueue = parse(raw.filter((l) => !l.includes('"type":"queue-operation"'))).filter(
      (m) => m.role === 'user' && !m.flags.meta,
    );
    expect(withQueue.map((m) => m.text)).toEqual(withoutQueue.map((m) => m.text));
  });

  it('a web session delivers each dequeued message as a user line: captured once (cc-web L127-L128)', () => {
    const raw = lines('cc-web');
    const users = readRealTranscript(byId('cc-web'))
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users.filter((t) => t.startsWith('organize repo:'))).toHaveLength(1);
    expect(raw.filter((l) => l.includes('"operation":"dequeue"'))).toHaveLength(6);
  });

  // The real files carry only task notifications and bare dequeues, so the typed-while-busy shapes
  // are made from their real lines: the real enqueue line with user text in place of the notice.
  const enqueueWith = (text: string) => {
    const real = JSON.parse(lines('cc-mac').find((l) => l.includes('"operation":"enqueue"'))!) as Record<string, unknown>;
    return JSON.stringify({ ...real, content: text });
  };
  const dequeue = () => lines('cc-mac').find((l) => l.includes('"operation":"dequeue"'))!;

  it('captures a message typed while the agent works, in order, when it is never delivered as a user line', () => {
    const raw = lines('cc-mac').slice(0, 20);
    const at = raw.findIndex((l) => l.includes('"type":"assistant"'));
    const withTyped = [...raw.slice(0, at + 1), enqueueWith('check again'), ...raw.slice(at + 1)];
    const users = parse(withTyped)
      .filter((m) => m.role === 'user' && !m.flags.meta)
      .map((m) => m.text);
    const before = parse(raw)
      .filter((m) => m.role === 'user' && !m.flags.meta)
      .map((m) => m.text);
    expect(users).toHaveLength(before.length + 1);
    expect(users).toContain('check again');
    // In order: after the user message that started the turn it was typed in, before the next one.
    expect(users).toEqual([before[0], 'check again', ...before.slice(1)]);
  });

  it('does not capture it twice when the host then delivers it as a user line or a queued_command attachment', () => {
    const userLine = JSON.parse(lines('cc-web').find((l) => l.includes('organize repo:'))!) as Record<string, unknown>;
    const typed = (userLine.message as { content: string }).content;
    const idle = parse([enqueueWith(typed), dequeue(), JSON.stringify(userLine)]).filter((m) => m.role === 'user');
    expect(idle.map((m) => m.text)).toEqual([typed]);
    const attachment = JSON.stringify({
      type: 'attachment',
      uuid: 'a1',
      timestamp: '2026-01-16T18:06:20.000Z',
      attachment: { type: 'queued_command', prompt: 'new beads for the epic were added. tackle them', commandMode: 'prompt' },
    });
    const removeLine = JSON.stringify({
      type: 'queue-operation',
      operation: 'remove',
      timestamp: '2026-01-16T18:06:19.000Z',
      sessionId: 's',
    });
    const midTurn = parse([enqueueWith('new beads for the epic were added. tackle them'), removeLine, attachment]).filter(
      (m) => m.role === 'user',
    );
    expect(midTurn.map((m) => m.text)).toEqual(['new beads for the epic were added. tackle them']);
    // A queued_command seen without its enqueue (an earlier read took the enqueue) is still the user's.
    expect(
      parse([attachment])
        .filter((m) => m.role === 'user')
        .map((m) => m.text),
    ).toEqual(['new beads for the epic were added. tackle them']);
  });
});

describe('raw conversation search and summaries (contract 5)', () => {
  it('leaves compaction summaries out of raw conversation search unless asked', async () => {
    const { openStrata, tempDir, removeDir, msg } = await import('./helpers.js');
    const home = await tempDir();
    const strata = await openStrata(home);
    try {
      const user = msg({ session: 'q1', role: 'user', content: 'the gitleaks scan must redact, not block', at: '2026-01-16T18:00:00Z' });
      const summary = msg({
        session: 'q1',
        role: 'summary',
        content: 'Summary: the user wants the gitleaks scan to redact secrets instead of blocking.',
        at: '2026-01-16T18:30:00Z',
      });
      await strata.appendConversation({ records: [user, summary] });
      const plain = await strata.searchConversations({ query: 'gitleaks redact' });
      expect(plain.map((h) => h.record.role)).toEqual(['user']);
      const all = await strata.searchConversations({ query: 'gitleaks redact', includeSummaries: true });
      expect(all.map((h) => h.record.role).sort()).toEqual(['summary', 'user']);
    } finally {
      await strata.close();
      await removeDir(home);
    }
  });
});
