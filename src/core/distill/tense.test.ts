import { describe, expect, it } from 'vitest';
import { mainClauseTense } from './tense.js';

const tense = (text: string) => mainClauseTense(text).tense;

describe('mainClauseTense', () => {
  it('reads the main verb group, not a participle or verb-looking word inside a noun phrase', () => {
    expect(tense('The integrated terminal reports truecolor.')).toBe('present');
    expect(tense('Authenticated pages live in the protected route group.')).toBe('present');
    expect(tense('Forty import paths were rewritten to the new name.')).toBe('past');
    expect(tense('The review agent read the changelog.')).toBe('past');
  });

  it('counts a present or modal auxiliary as present', () => {
    expect(tense('The router can be reached over SSH.')).toBe('present');
    expect(tense('The laptop is connected to the office VPN.')).toBe('present');
    expect(tense('The mirror was rebuilt overnight.')).toBe('past');
  });

  it('judges the first clause only', () => {
    expect(tense('The deploy script uses rsync; it broke once on macOS.')).toBe('present');
    expect(tense('The cron job failed, because the token expired.')).toBe('past');
  });

  it('says whether the subject names a person', () => {
    expect(mainClauseTense('Priya moved to Lisbon.')).toEqual({ tense: 'past', personal: true });
    expect(mainClauseTense("The user's phone was replaced.")).toEqual({ tense: 'past', personal: true });
    expect(mainClauseTense('The index was rebuilt.')).toEqual({ tense: 'past', personal: false });
  });
});
