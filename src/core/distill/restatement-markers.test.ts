import { describe, expect, it } from 'vitest';
import { captureByRules } from './rules.js';
import { saysRestated, withoutRestatementLeadIn } from './restatement-markers.js';

describe('restatement markers', () => {
  it('tell a repetition in English and Spanish, and not a first statement', () => {
    for (const said of [
      'as I said, backend is a two person show, me and raj',
      "we're still on heroku for the backend",
      'reminder: the compose redis is on 6380',
      'como te dije, uso vim para todo',
      'sigo con el plan de 16:8',
      // Accented endings ("recordá", "comenté") and the formal "le": letters, not \b, are the word edges.
      'recordá q el deploy es los martes',
      'como le comenté, el backup corre de noche',
      'le reitero que staging se llama pre',
      'ya sabés que soy vegano',
    ])
      expect(saysRestated(said), said).toBe(true);
    for (const said of ['we deploy on fridays only', 'me cambié a helix', 'our staging db is on port 5433', 'aun así prefiero tabs'])
      expect(saysRestated(said), said).toBe(false);
  });

  it('drop a lead-in or an aside that only says it was said before', () => {
    expect(withoutRestatementLeadIn('like i said before, we deploy on fridays only')).toBe('we deploy on fridays only');
    expect(withoutRestatementLeadIn('no dairy for me remember, lactose issues')).toBe('no dairy for me, lactose issues');
    expect(withoutRestatementLeadIn('como te dije, uso vim')).toBe('uso vim');
    expect(withoutRestatementLeadIn('Le recuerdo que el backup corre de noche')).toBe('el backup corre de noche');
  });

  it('let rule capture learn the statement and mark it', () => {
    // Before, the gate read "as I said" as reported speech and the statement was lost.
    expect(captureByRules({ text: 'as I said, backend is a two person show, me and raj' })).toMatchObject([
      { text: 'Backend is a two person show, me and raj.', restated: true },
    ]);
    expect(captureByRules({ text: 'reminder our style is 2 spaces, never tabs' })).toMatchObject([
      { text: 'Our style is 2 spaces, never tabs.', restated: true },
    ]);
    expect(captureByRules({ text: 'we use 2-space indentation everywhere, no tabs' })[0]?.restated).toBeUndefined();
  });
});
