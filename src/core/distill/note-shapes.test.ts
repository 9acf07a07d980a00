import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import type { MemoryEvidence } from './grounding.js';
import { isStandingInstruction, labelledNoteSentence, withoutConnective } from './note-shapes.js';

/**
 * Memory-file notes and terse extractor output through the whole gate (source `llm`). Sentences
 * written for the tests; the shapes are those of `admission-real-notes.jsonl` (bench/data/README.md,
 * "Stop 45"), where "ISP: Starlink" and "Run lint before opening a PR" were refused as a fragment and
 * a task request.
 */
const kept = [
  'ISP: Fibre7',
  'Username: mkowalski',
  'Credo max nesting depth: 3',
  '**Build command:** `pnpm turbo build`',
  'Custom snippets dir: `~/.config/zed/snippets/`',
  'Novia: Lucía',
  'Run `make lint` and `make test` before opening a PR',
  'Squash commits before merging to main',
  'Start the dev server from source: `npx tsx apps/web/src/server.ts`',
  'Also keeps a Raspberry Pi as a home server',
];

/** The state of the work under a label, and requests for the task at hand, whatever the reason given. */
const refused = [
  'Working branch: `feat/billing-v2`',
  'Next step: migrate the billing tables',
  'Compile error: `undefined function parse/2`',
  'Suggested PR title: "Faster invoice export"',
  'Test count: 212',
  'Open tickets: 8 tickets without an owner',
  'Fix the flaky upload test before opening the PR',
  'Rename the env var to `API_BASE`',
];

describe('memory-file notes and terse extractor output', () => {
  it.each(kept)('keeps %s', (text) => {
    expect(admit({ text, source: 'llm' })).toEqual({ admitted: true });
  });

  it.each(refused)('refuses %s', (text) => {
    expect(admit({ text, source: 'llm' }).admitted).toBe(false);
  });

  it('reads a label and its value as the sentence they stand for, only after a refusal the missing verb explains', () => {
    expect(labelledNoteSentence('ISP: Fibre7', { reason: 'fragment' })).toBe('ISP is Fibre7');
    expect(labelledNoteSentence('ISP: Fibre7', { reason: 'secret' })).toBeUndefined();
    expect(labelledNoteSentence('Lesson: the cache was stale because X', { reason: 'fragment' })).toBeUndefined();
    expect(labelledNoteSentence('Optimistic updates: snapshot the cache in onMutate', { reason: 'fragment' })).toBeUndefined();
    expect(labelledNoteSentence('Open issues: 8 tickets without an owner', { reason: 'fragment' })).toBeUndefined();
    expect(labelledNoteSentence('Themes dir: `~/.pi/themes`', { reason: 'ungrounded', detail: 'only the agent said it: fragment' })).toBe(
      'Themes dir is `~/.pi/themes`',
    );
    expect(labelledNoteSentence('Themes dir: `~/.pi/themes`', { reason: 'ungrounded', detail: 'corrected later: x' })).toBeUndefined();
  });

  it('reads a recurring moment or a command to use as a standing instruction, a named one as the task at hand', () => {
    expect(isStandingInstruction('Rebase on main before pushing to origin')).toBe(true);
    expect(isStandingInstruction('Run the benchmarks after merging a dependency bump')).toBe(true);
    expect(isStandingInstruction('Fix the test before opening the PR')).toBe(false);
    expect(isStandingInstruction('Rename the env var')).toBe(false);
  });

  it('drops a connective tying a note to the one before it', () => {
    expect(withoutConnective('Also runs a NAS at home')).toBe('Runs a NAS at home');
    expect(withoutConnective('Plus, prefers tabs')).toBe('Prefers tabs');
    expect(withoutConnective('Alsop is the landlord')).toBe('Alsop is the landlord');
  });

  it('keeps a labelled path only the agent named, and still refuses an agent-only label with no artefact', () => {
    const evidence: MemoryEvidence = {
      messages: [
        { id: 'u1', role: 'user', text: 'where do the custom themes live?' },
        {
          id: 'a1',
          role: 'assistant',
          text: 'Custom themes are loaded from `~/.pi/agent/themes/` at startup. The sidebar looks tidy now.',
        },
        { id: 'a2', role: 'assistant', text: 'Your NAS also runs Pi-hole for the whole network, so DNS goes through it.' },
      ],
      cited: ['a1'],
    };
    expect(admit({ text: 'Custom themes dir: `~/.pi/agent/themes/`', source: 'llm', evidence }).admitted).toBe(true);
    expect(admit({ text: 'Sidebar look: tidy', source: 'llm', evidence }).admitted).toBe(false);
    const fromNas = { ...evidence, cited: ['a2'] };
    expect(admit({ text: 'Also runs Pi-hole on the NAS for the whole network', source: 'llm', evidence: fromNas }).admitted).toBe(true);
  });
});
