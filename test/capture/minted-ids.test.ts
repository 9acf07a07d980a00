import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryHash } from '../../src/capture/readers/common.js';
import { redactId } from '../../src/core/write/redact-record.js';
import { REAL_TRANSCRIPTS, readRealTranscript, transcriptPath } from '../../bench/lib/real-transcripts.js';

/**
 * Message ids the readers mint for lines that carry none are provenance: memories, L0 and the
 * conversation index point at them. They must never look like a secret, or every store boundary
 * replaces them with a redaction marker (pi v1 ids were base64url hashes: 198 of 328 were).
 */
describe('minted message ids', () => {
  it('survive redaction in every shape a reader builds', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 2 ** 42 }), fc.constantFrom('user', 'assistant'), (text, ts, role) => {
        const h = entryHash(text);
        for (const id of [h, `v1-${ts}-${role}-${h}`, `queued-${ts}-${h}`, `m-42#${h.slice(0, 8)}`]) expect(redactId(id)).toBe(id);
      }),
      { numRuns: 500 },
    );
  });

  const pi = REAL_TRANSCRIPTS.find((t) => t.id === 'pi-theme')!;
  it.skipIf(!existsSync(transcriptPath(pi)))('of the real pi v1 session (no ids in the file) are stored as read', () => {
    const records = readRealTranscript(pi);
    expect(records.length).toBeGreaterThan(300);
    expect(records.filter((r) => redactId(r.id) !== r.id).map((r) => r.id)).toEqual([]);
  });
});
