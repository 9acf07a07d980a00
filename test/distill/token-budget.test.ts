import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkMessages, countTokens, loadTokenizer, packChunks, renderBatch } from '../../src/core/distill/index.js';
import { extractionMessages } from '../../src/core/distill/extract.js';
import { estimateTokens } from '../../src/core/recall/tokens.js';
import { REAL_TRANSCRIPTS, readRealTranscript, transcriptPath } from '../../bench/lib/real-transcripts.js';
import { msg } from './helpers.js';

/**
 * Honest token accounting (issue 14.7) on the real transcripts: counts come from a real tokenizer,
 * every chunk's rendered prompt stays within its budget (chars/4 let 3,000-token chunks reach 5,772),
 * and the per-message encoding is compact (no JSON escaping, no long ids).
 */
const present = REAL_TRANSCRIPTS.every((t) => existsSync(transcriptPath(t)));

beforeAll(async () => {
  await loadTokenizer();
});

describe('token counts', () => {
  it('counts with a real BPE tokenizer, which chars/4 underestimates on code and JSON', () => {
    const code = '{"id":"toolu_01UwLnYYWGBvukzh1QE6JpfM","input":{"command":"bd show spotter-dov"}}';
    expect(countTokens(code)).toBeGreaterThan(estimateTokens(code));
    expect(countTokens('hello world')).toBe(2);
  });
});

describe.skipIf(!present)('chunks on the real transcripts', () => {
  for (const budget of [600, 1500, 3000]) {
    it(`never exceed a ${budget}-token budget`, () => {
      for (const t of REAL_TRANSCRIPTS) {
        const records = readRealTranscript(t);
        const packs = packChunks({ chunks: chunkMessages({ messages: records, maxTokens: budget }), maxTokens: budget });
        expect(packs.flat()).toHaveLength(records.length); // every message belongs to a chunk (and is marked done with it)
        for (const pack of packs) expect(countTokens(renderBatch(pack, { maxTokens: budget }).text)).toBeLessThanOrEqual(budget);
      }
    });
  }

  it('encodes messages compactly: a numbered header line and the text as is, numbers mapping back to records', () => {
    const records = readRealTranscript(REAL_TRANSCRIPTS.find((t) => t.id === 'cc-navuser')!);
    const batch = renderBatch(records.slice(0, 4));
    expect(batch.text).not.toContain('"content"');
    expect(batch.text).not.toContain(records[0]!.id);
    expect(batch.text.split('\n')[1]).toMatch(/^\[1 user \d\d:\d\d\]$/);
    expect(batch.refs.get('1')).toBe(records[0]);
  });
});

describe('the extraction prompt', () => {
  it('wraps each message in a few tokens, not a JSON object with ids and timestamps', () => {
    const records = Array.from({ length: 40 }, (_, i) =>
      msg({
        session: 's',
        role: i % 2 ? 'assistant' : 'user',
        content: `I prefer tabs over spaces in project ${i}, and "quotes" stay as they are.`,
        at: `2026-11-01T09:${String(i).padStart(2, '0')}:00Z`,
      }),
    );
    const text = extractionMessages(records).messages[1]!.content;
    const content = records.reduce((sum, r) => sum + countTokens(r.content), 0);
    // Wrapper overhead per message: the header line only.
    expect((countTokens(text) - content) / records.length).toBeLessThan(12);
    expect(text).toContain('"quotes"');
  });
});
