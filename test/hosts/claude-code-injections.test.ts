/**
 * What counts as "already in the session": blocks Strata injected (its own record, or the hook
 * context found in a transcript in the two formats Claude Code has written), cleared by compaction.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatContextBlock } from '../../src/core/recall/context-format.js';
import { InjectionStore, alreadyInjected, hookContextInTranscript } from '../../src/hosts/claude-code/injections.js';
import { TaskQueue } from '../../src/resident/tasks.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-injections-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (text: string) => ({
  record: { text, category: 'fact' as const, scope: 'global', validFrom: '2026-01-01T00:00:00Z', createdAt: '2026-01-01T00:00:00Z' },
});

describe('session injections', () => {
  it('a memory is present when its escaped one-line form sits in an injected block', () => {
    const text = 'Use <b>pnpm</b> &\n  never "npm"';
    const block = formatContextBlock({ results: [record(text)], maxTokens: 800 });
    expect(alreadyInjected([block], text)).toBe(true);
    expect(alreadyInjected([block], 'Use pnpm')).toBe(false);
    expect(alreadyInjected([], text)).toBe(false);
  });

  it('seeds from attachment lines (2.1.207+) and isMeta reminders (older), forgetting what a compaction dropped', async () => {
    const old = formatContextBlock({ results: [record('before the compaction')], maxTokens: 800 });
    const kept = formatContextBlock({ results: [record('after the compaction')], maxTokens: 800 });
    const meta = formatContextBlock({ results: [record('an older reminder')], maxTokens: 800 });
    const path = join(dir, 't.jsonl');
    await writeFile(
      path,
      [
        { type: 'attachment', attachment: { type: 'hook_additional_context', content: [old], hookEvent: 'SessionStart' } },
        { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted' },
        { type: 'attachment', attachment: { type: 'hook_additional_context', content: [kept], hookEvent: 'UserPromptSubmit' } },
        {
          type: 'user',
          isMeta: true,
          message: { role: 'user', content: `<system-reminder>\nUserPromptSubmit hook additional context: ${meta}</system-reminder>` },
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n{"type":"attach',
    );
    const blocks = await hookContextInTranscript(path);
    expect(alreadyInjected(blocks, 'before the compaction')).toBe(false);
    expect(alreadyInjected(blocks, 'after the compaction')).toBe(true);
    expect(alreadyInjected(blocks, 'an older reminder')).toBe(true);

    const store = new InjectionStore({ home: dir });
    expect(await store.begin({ sessionId: 's1', transcriptPath: path, fresh: false })).toEqual(blocks);
    expect(await store.begin({ sessionId: 's1', transcriptPath: path, fresh: true })).toEqual([]);
    await store.add('s1', kept);
    // Another process (the in-process fallback) reads the same state from disk.
    expect(await new InjectionStore({ home: dir }).begin({ sessionId: 's1', fresh: false })).toEqual([kept]);
    expect(await store.begin({ sessionId: '../escape', fresh: false })).toEqual([]);
  });
});

describe('resident task queue', () => {
  it('runs one task at a time, keeps a waiting key once, and reports failures without rejecting callers', async () => {
    const errors: string[] = [];
    const queue = new TaskQueue({ onError: (key) => errors.push(key) });
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const task =
      (name: string, fail = false) =>
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 20));
        order.push(name);
        running--;
        if (fail) throw new Error(name);
      };
    const a = queue.add('a', task('a'));
    const b1 = queue.add('b', task('b1'));
    const b2 = queue.add('b', task('b2')); // b is still waiting: not queued again
    const c = queue.add('c', task('c', true));
    const late = queue.add('late', task('late'), { delayMs: 50 });
    expect(queue.busy).toBe(true);
    await Promise.all([a, b1, b2, c, late]);
    expect(order).toEqual(['a', 'b1', 'c', 'late']);
    expect(most).toBe(1);
    expect(errors).toEqual(['c']);
    await queue.idle();
    expect(queue.busy).toBe(false);
    const dropped = queue.add('later', task('later'), { delayMs: 10_000 });
    await queue.stop();
    await dropped;
    expect(order).not.toContain('later');
  });
});
