import { describe, expect, it } from 'vitest';
import { idTimestamp, isValidId, newId } from './ids.js';

describe('newId', () => {
  it('returns ULIDs that sort in creation order even within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every(isValidId)).toBe(true);
    expect(ids[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('encodes the creation time', () => {
    const before = Date.now();
    const id = newId();
    expect(idTimestamp(id)).toBeGreaterThanOrEqual(before - 1);
    expect(idTimestamp(id)).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('rejects non-ULIDs', () => {
    expect(isValidId('not-an-id')).toBe(false);
    expect(isValidId('')).toBe(false);
  });
});
