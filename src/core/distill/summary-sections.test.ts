import { describe, expect, it } from 'vitest';
import { captureByRules } from './rules.js';
import { summarySentences } from './summary-sections.js';

const learned = (text: string) => captureByRules({ text, role: 'summary' }).map((c) => c.text);

// A pi / OpenClaw context checkpoint as the host writes it (docs/host-formats.md), on an invented project.
const CHECKPOINT = [
  '# Context Checkpoint: Nightly ledger export',
  '',
  '## Goal',
  'Make the nightly ledger export resumable after a crash.',
  '',
  '## Constraints & Preferences',
  '- Ledger amounts are stored as integer öre, never as floats.',
  '- Kube contexts: `ldg-stage` and `ldg-prod`.',
  '- Next concrete step: rerun the export against the staging snapshot.',
  '- ok',
  '',
  '## Progress',
  '### Done',
  '- [x] Batch size: 2,000 rows per chunk in `export/chunker.go`.',
  '### In Progress',
  '- [ ] Retry budget for the S3 client: 5 attempts with jitter.',
  '',
  '## Key Decisions',
  '- **Parquet instead of CSV**: finance loads the files into DuckDB and CSV lost the decimal types.',
  '- actually the old cron stays on for a week, as the way back.',
  '',
  '## Next Steps',
  '1. Wire the resume token into `cmd/export/main.go`.',
  '',
  '## Critical Context',
  '- The export bucket is `ldg-exports-eu` in eu-north-1, object lock on for seven years.',
  '- The export job failed twice last night on the staging snapshot.',
  '<read-files>',
  'export/chunker.go',
  '</read-files>',
].join('\n');

describe('compaction summary sections', () => {
  it('marks the lines under headings that file lasting things, and skips the work in flight', () => {
    const standing = summarySentences(CHECKPOINT)
      .filter((s) => s.standing)
      .map((s) => s.text);
    expect(standing).toContain('Kube contexts: `ldg-stage` and `ldg-prod`.');
    expect(standing).toContain('The export bucket is `ldg-exports-eu` in eu-north-1, object lock on for seven years.');
    const all = summarySentences(CHECKPOINT).map((s) => s.text);
    expect(all.some((t) => t.includes('Batch size'))).toBe(false);
    expect(all.some((t) => t.includes('resume token'))).toBe(false);
    // pi's list of the files it read is not prose.
    expect(all.some((t) => /read-files|chunker\.go/.test(t))).toBe(false);
    expect(summarySentences('## Open questions for Ana\n- Should the export keep CSV as well?\n')[0]?.standing).toBe(false);
    expect(summarySentences('## Decisions pending\n- Whether to move to Celery.\n')[0]?.standing).toBe(false);
  });

  it('learns a bare line under such a heading, and not a continuation, open work, an event or a file list', () => {
    const got = learned(CHECKPOINT);
    expect(got).toEqual([
      'Ledger amounts are stored as integer öre, never as floats.',
      'Kube contexts: `ldg-stage` and `ldg-prod`.',
      'Parquet instead of CSV: finance loads the files into DuckDB and CSV lost the decimal types.',
      'The export bucket is `ldg-exports-eu` in eu-north-1, object lock on for seven years.',
    ]);
  });

  it('does not learn a credential with its value, whatever its form, from a standing section', () => {
    const context = [
      '## Critical Context',
      '- Door code for the potting shed: 8812, the spare key is under the pot.',
      '- Lockbox code: 1379, keys for both greenhouses are inside.',
      '- The Influx admin token lives in 1Password, vault "Garden".',
    ].join('\n');
    expect(learned(context)).toEqual(['The Influx admin token lives in 1Password, vault "Garden".']);
  });

  it('reads headings of the writer’s own choosing the same way', () => {
    const note = [
      '# Handoff: Tove’s household assistant',
      '## Things she asked me to remember',
      '- Tove’s GP is Dr Lindqvist at Vårdcentralen Söder; appointments only after 15:00.',
      '- Swimming for both kids on Thursdays at Eriksdalsbadet, 17:30.',
      '## What happened today',
      '- Booked the car service at Bilia for Friday morning.',
    ].join('\n');
    expect(learned(note)).toEqual([
      'Tove’s GP is Dr Lindqvist at Vårdcentralen Söder; appointments only after 15:00.',
      'Swimming for both kids on Thursdays at Eriksdalsbadet, 17:30.',
    ]);
  });
});
