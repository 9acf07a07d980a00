import { describe, expect, it } from 'vitest';
import { captureByRules } from './rules.js';
import { pinsVersionNow } from './version-now.js';

const learn = (text: string) => captureByRules({ text, role: 'user' }).map((c) => c.text);

describe('a tool named at the start of a sentence about it', () => {
  it('is read as prose, not as a command line', () => {
    expect(learn('ruby on this box is 3.2, installed with asdf')).toEqual(['Ruby on this box is 3.2, installed with asdf.']);
    expect(learn('perl is what the billing scripts are written in')).toEqual(['Perl is what the billing scripts are written in.']);
    expect(learn('source of truth for stock levels is the shopify admin')).toEqual([
      'Source of truth for stock levels is the shopify admin.',
    ]);
    expect(learn('head of finance is Tomasz, he signs off anything over 5k')).toHaveLength(1);
  });

  it('leaves command lines as tool output', () => {
    for (const text of ['docker ps --format json', 'git log --oneline | head', 'cd ~/src/tills', 'kubectl rollout restart deploy/kiosk'])
      expect(learn(text), text).toEqual([]);
  });
});

describe('a version something is on at present', () => {
  it('is learned despite "right now", "atm" or "currently"', () => {
    expect(learn('the kiosk app is on flutter 3.13 right now')).toEqual(['The kiosk app is on flutter 3.13.']);
    expect(learn('all the tills run android api level 26 at the moment')).toHaveLength(1);
    expect(learn('the backend targets java 17 currently')).toHaveLength(1);
    expect(pinsVersionNow('the label printer service is on python 3.9 atm, no match statements')).toBe(true);
  });

  it('does not make a place in a list, a count, a measure or a run a lasting fact', () => {
    for (const text of [
      'the kiosk app is on page 2 right now',
      'im on level 3 right now',
      'our cluster is at 80% right now',
      'the invoice run is on step 4 right now',
      'the dev box is running on port 8081 right now',
      'my long ride is about 40 miles right now',
    ]) {
      expect(pinsVersionNow(text), text).toBe(false);
      expect(learn(text), text).toEqual([]);
    }
    // No present marker: nothing for this check to say.
    expect(pinsVersionNow('the kiosk app is on flutter 3.13')).toBe(false);
  });
});
