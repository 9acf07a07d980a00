import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRealSet } from '../../bench/admission.js';
import { REAL_TRANSCRIPTS, transcriptPath } from '../../bench/lib/real-transcripts.js';
import { rulesYield } from '../../bench/rules.js';

/**
 * Offline distillation on the real transcripts (issue 14.3): before, four Claude Code sessions, a
 * pi session and the fixtures taught one memory, and it was junk. These are the durable items of
 * ../shared/fixtures/transcripts-dev/README.md the rules must learn, in their normalised form, and
 * what they must never store.
 */
const present = REAL_TRANSCRIPTS.every((t) => existsSync(transcriptPath(t)));
const learn = async (id: string) => (await rulesYield(REAL_TRANSCRIPTS.find((t) => t.id === id)!)).memories.map((m) => m.text);

describe.skipIf(!present)('offline rules on the real transcripts', () => {
  it('cc-windows: the signing rule (L935)', async () => {
    expect(await learn('cc-windows')).toContain('Never commit without signing.');
  });

  it('cc-mac: the max-strict rule restated by the compaction summary, and its lessons (L316, L483)', async () => {
    const texts = await learn('cc-mac');
    expect(texts).toContain('Make sure gitleaks is set to max strict.');
    // The summary tells each lesson twice, in other words; one memory each.
    expect(texts.filter((t) => /gitleaksignore.*doesn't support wildcards/.test(t))).toHaveLength(1);
    expect(texts.filter((t) => /BFG installation (?:failed|was blocked)/.test(t))).toHaveLength(1);
    // The summary's pending tasks are not rules.
    expect(texts.some((t) => /re-clone/.test(t))).toBe(false);
  });

  it('cc-web: redact, do not block (L1, L341)', async () => {
    const texts = await learn('cc-web');
    expect(texts.some((t) => /don't block the commit-push, instead redact/.test(t))).toBe(true);
  });

  it('pi-theme: the TUI and theme rules (L275, L299, L389, L856, L864)', async () => {
    const texts = await learn('pi-theme');
    for (const rule of [
      'Truncated text must stop when it encounters a new line.',
      'Use rgb values in the themes, no rgb indices.',
      'Invalid themes must NEVER explode.',
      'setTheme should return an error that the caller can display however they want.',
    ]) {
      expect(texts).toContain(rule);
    }
  });

  it('codex-prisma: the migration decisions (L4)', async () => {
    expect(await learn('codex-prisma')).toEqual(
      expect.arrayContaining([
        'We will keep our database on supabase but connect to it via DATABASE_URL.',
        'We can keep @supabase/supabase-js while we gradually migrate everything to use prisma.',
      ]),
    );
  });

  it('learns nothing from a subagent prompt or heartbeat polls, and nothing the labelled set calls junk', async () => {
    expect(await learn('cc-web-explore')).toEqual([]);
    expect(await learn('openclaw-charbi')).toEqual([]);
    const junk = new Set(
      loadRealSet()
        .filter((r) => r.label === 'junk')
        .map((r) => r.text.toLowerCase().replace(/[.!]+$/, '')),
    );
    for (const id of ['cc-windows', 'cc-navuser', 'codex-teams', 'cc-mac', 'cc-web']) {
      for (const text of await learn(id)) expect(junk.has(text.toLowerCase().replace(/[.!]+$/, ''))).toBe(false);
    }
  });
});
