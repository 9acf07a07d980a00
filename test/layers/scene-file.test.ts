import fc from 'fast-check';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isDeadScene,
  normalizeSceneName,
  parseScene,
  readSceneIndex,
  serializeScene,
  syncSceneIndex,
} from '../../src/core/layers/index.js';
import { capacityGuidance, parsePersonaUpdateRequest } from '../../src/core/layers/index.js';

const iso = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());

describe('scene files', () => {
  it('parse(serialize(doc)) returns the same doc for any summary and body', () => {
    fc.assert(
      fc.property(fc.record({ summary: fc.string(), heat: fc.nat(), created: iso, updated: iso, body: fc.string() }), (doc) => {
        expect(parseScene(serializeScene(doc))).toEqual(doc);
      }),
      { numRuns: 500 },
    );
  });

  it('parses a header-less file: first line is the summary, dates fall back', () => {
    const doc = parseScene('\n# Travel plans\nTokyo in May\n', '2026-01-01T00:00:00.000Z');
    expect(doc).toMatchObject({
      summary: 'Travel plans',
      heat: 0,
      created: '2026-01-01T00:00:00.000Z',
      body: '\n# Travel plans\nTokyo in May\n',
    });
  });

  it('treats empty, marker-only and header-only files as dead', () => {
    const header = serializeScene({ summary: 's', heat: 1, created: 'x', updated: 'y', body: '\n  \n' });
    expect([isDeadScene(''), isDeadScene(' [DELETED]\n'), isDeadScene(header), isDeadScene(header + 'content')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('normalises names to lower-case ASCII slugs', () => {
    expect(normalizeSceneName('Daily Rhythm in Shanghai!.md')).toBe('daily-rhythm-in-shanghai.md');
    expect(normalizeSceneName('Café  Notes.v2.md')).toBe('cafe-notes-v2.md');
    expect(normalizeSceneName('工作.md')).toBe('scene.md');
    expect(normalizeSceneName('ok-name_1.md')).toBe('ok-name_1.md');
  });

  it('keeps the index in sync with the files (hidden files, symlinks and other extensions ignored)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'strata-scenes-'));
    try {
      await writeFile(
        join(dir, 'a.md'),
        serializeScene({ summary: 'A', heat: 1, created: '2026-01-01T00:00:00.000Z', updated: '2026-01-02T00:00:00.000Z', body: 'a\n' }),
      );
      await writeFile(
        join(dir, 'b.md'),
        serializeScene({ summary: 'B', heat: 5, created: '2026-01-01T00:00:00.000Z', updated: '2026-01-01T00:00:00.000Z', body: 'b\n' }),
      );
      await writeFile(join(dir, '.hidden.md'), 'x');
      await writeFile(join(dir, 'notes.txt'), 'x');
      const paths = { scenesDir: dir, indexFile: join(dir, '.index.json') };
      const synced = await syncSceneIndex(paths);
      expect(synced.map((s) => [s.filename, s.heat, s.summary])).toEqual([
        ['b.md', 5, 'B'],
        ['a.md', 1, 'A'],
      ]);
      expect(await readSceneIndex(paths)).toEqual(synced);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('capacity guidance and the persona signal', () => {
  it('switches tiers exactly at the thresholds (limit 15)', () => {
    const tiers = [11, 12, 13, 14, 15, 16].map((count) => capacityGuidance({ count, limit: 15 }).tier);
    expect(tiers).toEqual(['ok', 'approaching', 'approaching', 'update-only', 'merge-first', 'merge-first']);
    expect(capacityGuidance({ count: 15, limit: 15 }).text).toMatch(/Scenes: 15 \/ 15.*MUST merge/s);
  });

  it('parses block and inline persona requests', () => {
    expect(parsePersonaUpdateRequest('done.\n[PERSONA_UPDATE_REQUEST]reason: moved to Berlin[/PERSONA_UPDATE_REQUEST]')).toEqual({
      reason: 'moved to Berlin',
    });
    expect(parsePersonaUpdateRequest('PERSONA_UPDATE_REQUEST: new job\nmore')).toEqual({ reason: 'new job' });
    expect(parsePersonaUpdateRequest('nothing to report')).toBeUndefined();
  });
});
