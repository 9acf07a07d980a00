import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTranscriptFormat, readTranscriptForJournal } from '../../src/capture/journal-source.js';
import { CLAUDE_FIXTURE, CODEX_FIXTURE_DIR, OPENCLAW_FIXTURE } from './helpers.js';

async function codexFixture(): Promise<string> {
  const dir = join(CODEX_FIXTURE_DIR, '2025', '10', '29');
  return join(dir, (await readdir(dir))[0]!);
}

describe('readTranscriptForJournal', () => {
  it('detects each host format from the real fixtures', async () => {
    expect(await detectTranscriptFormat(CLAUDE_FIXTURE)).toBe('claude-code');
    expect(await detectTranscriptFormat(await codexFixture())).toBe('codex');
    expect(await detectTranscriptFormat(OPENCLAW_FIXTURE)).toBe('openclaw');
  });

  it('returns cleaned user and assistant messages (host boilerplate dropped)', async () => {
    const codex = await readTranscriptForJournal({ path: await codexFixture() });
    expect(codex.messages.map((m) => `${m.role}: ${m.text}`)).toEqual(['user: what is 2+2? just give me the answer', 'assistant: 4']);
    const openclaw = await readTranscriptForJournal({ path: OPENCLAW_FIXTURE });
    expect(openclaw.messages[0]?.text).toBe('On the board named DevPlanner, are you capable of moving DE-16 to make it the top priority?');
  });

  it('refuses a missing file and an unknown format with actionable messages', async () => {
    await expect(readTranscriptForJournal({ path: '/nonexistent/x.jsonl' })).rejects.toThrow(/does not exist/);
    await expect(readTranscriptForJournal({ path: join(import.meta.dirname, 'helpers.ts') })).rejects.toThrow(/Cannot tell the format/);
  });
});
