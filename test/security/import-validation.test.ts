import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openStrata, removeDir, tempDir } from '../distill/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length) await removeDir(dirs.pop()!);
});

describe('import validation', () => {
  it('rejects 100 KB tags and path-like supersedes, by line, and imports the rest', async () => {
    const home = await tempDir();
    dirs.push(home);
    const strata = await openStrata(home);
    try {
      const lines = [
        { text: 'huge tag', tags: ['x'.repeat(100_000)] },
        { text: 'path supersedes', supersedes: '../../etc/passwd' },
        { text: 'path superseded by', supersededBy: '/tmp/x' },
        { text: 'fine', tags: ['ok'] },
      ].map((l) => JSON.stringify(l));
      const report = await strata.import({ input: Readable.from([lines.join('\n') + '\n']) });
      expect(report.invalid.map((i) => i.line)).toEqual([1, 2, 3]);
      expect(report.invalid[0]!.error).toMatch(/tags/);
      expect(report.invalid[1]!.error).toMatch(/supersedes.*ULID/);
      expect(report.imported).toBe(1);
    } finally {
      await strata.close();
    }
  });
});
