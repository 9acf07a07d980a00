import { describe, expect, it } from 'vitest';
import { shouldRecall } from './gate.js';

const skip = (text: string) => shouldRecall({ text });

describe('shouldRecall', () => {
  it.each([
    ['hi', 'too-short'],
    ['hello there!', 'greeting'],
    ['Good morning', 'greeting'],
    ['你好', 'too-short'],
    ['ok thanks!', 'acknowledgement'],
    ['thank you so much', 'acknowledgement'],
    ['sounds good', 'acknowledgement'],
    ['please continue', 'acknowledgement'],
    ['go ahead', 'acknowledgement'],
    ['好的，谢谢', 'acknowledgement'],
    ['继续继续继续', 'acknowledgement'],
    ['/reset now please', 'slash-command'],
    ['git status', 'shell-command'],
    ['npm run build --watch', 'shell-command'],
    ['ls -la ./src', 'shell-command'],
    ['sudo apt-get install jq', 'shell-command'],
    ['👍👍🎉', 'too-short'],
    ['👍 👍 🎉 🚀 ✨', 'emoji-only'],
    ['Read HEARTBEAT.md if it exists and follow it', 'heartbeat'],
    ['[System Message] compaction finished', 'system-message'],
    ['fix the typo', 'short-non-question'],
    ['修一下这个', 'short-non-question'],
  ])('skips %j (%s)', (text, reason) => {
    expect(skip(text)).toEqual({ recall: false, reason });
  });

  it.each([
    'remember that I use pnpm',
    'what did I say about the deploy?',
    'Last time we chose Postgres',
    "what's my email",
    'my name is?',
    '你还记得我的项目吗',
    '上次我们讨论的方案',
    '我之前说过什么',
  ])('forces recall on %j', (text) => {
    expect(skip(text)).toEqual({ recall: true, reason: 'forced:recall-phrase' });
  });

  it('recalls on ordinary questions and longer statements', () => {
    expect(skip('which db?')).toEqual({ recall: true, reason: 'question' });
    expect(skip('Set up the staging deploy for the billing service')).toEqual({ recall: true, reason: 'default' });
    expect(skip('这个项目用什么数据库')).toEqual({ recall: true, reason: 'default' });
  });

  it('treats prose that starts with a shell verb as prose', () => {
    expect(skip('find the notes about our quarterly budget review').recall).toBe(true);
    expect(skip('test whether the login page handles expired sessions').recall).toBe(true);
  });

  it('strips host envelopes before deciding', () => {
    const wrapped = 'Conversation info (untrusted metadata):\n```json\n{"message_id": "1"}\n```\n\nok thanks';
    expect(skip(wrapped)).toEqual({ recall: false, reason: 'acknowledgement' });
    expect(skip('[Mon 2026-01-05 10:00 UTC] what did we decide about caching?').reason).toBe('forced:recall-phrase');
    expect(skip('<relevant-memories>\n1. [fact] remember this\n</relevant-memories>\nthanks')).toEqual({
      recall: false,
      reason: 'acknowledgement',
    });
  });

  it('skips empty input', () => {
    expect(skip('   ')).toEqual({ recall: false, reason: 'empty' });
  });

  it('stays linear on long repetitive input', () => {
    expect(skip('ok '.repeat(20_000) + '?').recall).toBe(true);
    expect(skip('k'.repeat(50_000) + 'x').recall).toBe(true);
  });
});
