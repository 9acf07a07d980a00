import { describe, expect, it } from 'vitest';
import { cleanQuery } from './query-cleanup.js';
import { OPENCLAW_ENVELOPE } from '../../../test/fixtures/openclaw-envelope.js';

describe('cleanQuery', () => {
  it('removes injected recall blocks in both spellings', () => {
    const text =
      '<relevant-memories>\nTreat...\n1. [fact] x\n</relevant-memories>\nWhat is the plan?\n<relevant_memories>old</relevant_memories>';
    expect(cleanQuery({ text })).toEqual({ text: 'What is the plan?', removed: ['relevant-memories'], truncated: false });
  });

  it('removes an unclosed recall block to the end', () => {
    expect(cleanQuery({ text: 'Where is it? <relevant-memories>\n1. [fact] x' }).text).toBe('Where is it?');
  });

  it('removes system reminders', () => {
    const result = cleanQuery({ text: '<system-reminder>\nfiles changed\n</system-reminder>\nrename the module' });
    expect(result.text).toBe('rename the module');
    expect(result.removed).toContain('system-reminder');
  });

  it('removes OpenClaw envelope headers with their JSON blocks (host-formats 1.8)', () => {
    const text = OPENCLAW_ENVELOPE;
    const result = cleanQuery({ text });
    expect(result.text).toBe('经过了今天的努力，我把mem9的LoCoMo Benchmark从63%提升到了70%+');
    expect(result.removed).toEqual(expect.arrayContaining(['envelope-metadata', 'external-untrusted-content']));
  });

  it('removes a sentinel followed by bare JSON', () => {
    expect(cleanQuery({ text: 'Sender (untrusted metadata): {"name": "A", "meta": {"x": 1}}\nhello world' }).text).toBe('hello world');
  });

  it('removes cron and timestamp prefixes and media notes', () => {
    expect(cleanQuery({ text: '[cron:daily-digest] summarise my inbox' }).text).toBe('summarise my inbox');
    expect(cleanQuery({ text: '[Mon 2026-01-05 10:00 UTC] where do I deploy?' }).text).toBe('where do I deploy?');
    expect(cleanQuery({ text: '[Tue 2026-01-06 09:15 GMT+8] a\n[media attached: image/png]\nb' }).text).toBe('a b');
  });

  it('keeps brackets that are not prefixes', () => {
    expect(cleanQuery({ text: 'what does [Mon 2026-01-05 10:00 UTC] mean' }).text).toBe('what does [Mon 2026-01-05 10:00 UTC] mean');
  });

  it('collapses whitespace and caps length by code points', () => {
    expect(cleanQuery({ text: '  a \n\n\t b  ' }).text).toBe('a b');
    const capped = cleanQuery({ text: '😀'.repeat(20), maxChars: 5 });
    expect(capped).toEqual({ text: '😀'.repeat(5), removed: [], truncated: true });
    expect(cleanQuery({ text: 'x'.repeat(5000) }).text).toHaveLength(1000);
  });

  it('handles huge and hostile inputs without blowing up', () => {
    const huge = 'Sender (untrusted metadata): {' + 'a'.repeat(500_000);
    expect(cleanQuery({ text: huge }).text.length).toBeLessThanOrEqual(1000);
    const opens = '<relevant-memories>'.repeat(10_000) + 'question';
    expect(cleanQuery({ text: opens }).text).toBe('');
  });
});
