import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REAL_TRANSCRIPTS, readRealTranscript, transcriptPath } from '../../../bench/lib/real-transcripts.js';
import { captureByRules } from './rules.js';
import { splitUserQuotes } from './summary-quotes.js';

const NUMBERED = `Analysis:
The user asked for a theme fix.

Summary:
1. Primary Request and Intent:
   Fix the theme selector.

6. All User Messages:
   - "Work on bead spotter-dov. Run bd show spotter-dov first."
   - "we use pnpm in this repo, not npm" (said after the install failed)
   - "continue"

7. Pending Tasks:
   - Fix the compile error
`;

const HEADINGS = `## 5. Problem Solving
Solved the hook.

## 6. All User Messages

1. "sync the repo"
2. "never push to main directly.
   open a PR instead"

## 7. Pending Tasks
1. Fix the thing
`;

describe('user messages quoted in a compaction summary', () => {
  it('are split out of both Claude Code layouts (numbered sections with bullets, headings with numbered items)', () => {
    const a = splitUserQuotes(NUMBERED);
    expect(a.quotes).toEqual(['Work on bead spotter-dov. Run bd show spotter-dov first.', 'we use pnpm in this repo, not npm', 'continue']);
    expect(a.rest).toContain('7. Pending Tasks:');
    expect(a.rest).not.toContain('All User Messages');
    const b = splitUserQuotes(HEADINGS);
    expect(b.quotes).toEqual(['sync the repo', 'never push to main directly.\nopen a PR instead']);
    expect(b.rest).toContain('## 7. Pending Tasks');
    expect(splitUserQuotes('No list here.\n- "a quote"').quotes).toEqual([]);
  });

  it('are learned from as the user speaking: their rules are kept, their requests are not', () => {
    const numbered = captureByRules({ text: NUMBERED, role: 'summary' }).map((c) => c.text);
    expect(numbered).toEqual([expect.stringMatching(/pnpm in this repo, not npm/i)]);
    const headings = captureByRules({ text: HEADINGS, role: 'summary' }).map((c) => c.text);
    expect(headings).toEqual([expect.stringMatching(/^Never push to main directly/)]);
  });

  const spotter = REAL_TRANSCRIPTS.find((t) => t.id === 'cc-spotter')!;
  it.skipIf(!existsSync(transcriptPath(spotter)))('of the real cc-spotter summary are its two requests, which teach nothing', () => {
    const summary = readRealTranscript(spotter).find((m) => m.role === 'summary')!;
    const { quotes } = splitUserQuotes(summary.content);
    expect(quotes).toHaveLength(2);
    expect(quotes[1]).toBe('continue');
    // What the summary teaches is its own glossary line (a keeper of the real set the summary model
    // was trained on), not the quoted requests.
    expect(captureByRules({ text: summary.content, role: 'summary' }).map((c) => [c.trigger, c.text])).toEqual([
      ['model', expect.stringMatching(/^AshComputer \/ AshComputer\.LiveView - Reactive state management DSL/)],
    ]);
  });
});
