import { describe, expect, it } from 'vitest';
import { decideOffline, type CurrentItem } from './reconcile-offline.js';

const item = (id: string, text: string, since = 0): CurrentItem => ({ text, since, ref: { id } });
const decide = (text: string, current: CurrentItem[], similarity?: number) =>
  decideOffline({
    text,
    statedAt: 100,
    current,
    similar: similarity === undefined ? [] : current.map((c) => ({ item: c, similarity })),
    nearDuplicateThreshold: 0.92,
  });

describe('offline reconciliation by rules', () => {
  it('a change placed nowhere in particular replaces the choice it changes, whatever else either says', () => {
    const editor = item('editor', "The user's editor is sublime text, so keybinding tips should be for that.");
    expect(decide('Finally caved and switched to zed.', [editor])).toMatchObject({ kind: 'supersede', target: { id: 'editor' } });
  });

  it('two choices in different places stay two facts', () => {
    const cache = item('cache', 'We use Redis for caching.');
    expect(decide('Our main database is Postgres.', [cache]).kind).toBe('create');
  });

  it('a second thing told close to the first is created beside it, not as a change', () => {
    const db = item('db', 'The main app database is postgres.');
    const verdict = decide('The analytics warehouse is on clickhouse, separate from the app db.', [db], 0.95);
    expect(verdict.kind).toBe('create');
  });
});
