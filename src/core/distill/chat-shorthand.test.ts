import { describe, expect, it } from 'vitest';
import { spellOutShorthand } from './chat-shorthand.js';
import { captureByRules } from './rules.js';

const stored = (text: string): string[] => captureByRules({ text, role: 'user' }).map((c) => c.text);

describe('chat shorthand in what the rules store', () => {
  it.each([
    [
      'fyi the staging box reboots every sunday night bc of the kernel patch window',
      'The staging box reboots every sunday night because of the kernel patch window.',
    ],
    ['oat milk only tho, the twins are lactose intolerant', 'Oat milk only though, the twins are lactose intolerant.'],
    ['we test thru the public api only, never the internals', 'We test through the public api only, never the internals.'],
    ['the gym is shut on mondays, ppl forget that', 'The gym is shut on mondays, people forget that.'],
    ['the ci runs on arm64 runners, obvs not for the ios build', 'The ci runs on arm64 runners, obviously not for the ios build.'],
    ["cat's vet is dr lee, shes great w/ anxious cats", "Cat's vet is dr lee, she's great with anxious cats."],
    ['our builder is called makeit, its deliberately tiny', "Our builder is called makeit, it's deliberately tiny."],
  ])('spells out %j', (said, memory) => {
    expect(stored(said)).toEqual([memory]);
  });

  it.each([
    // A filler opening the sentence hid the speaker: with it gone, the first person is turned.
    ['tbh i find long commit bodies useless', 'The user finds long commit bodies useless.'],
    ['k so our wiki lives in notion now, confluence is gone', 'Our wiki lives in notion now, confluence is gone.'],
    ['no pineapple on pizza lol, the kids hate it', 'No pineapple on pizza, the kids hate it.'],
    ['gonna say it once: the staging db is on port 5433', 'The staging db is on port 5433.'],
    ['let me repeat it: our invoices go out on the 1st of every month', 'Our invoices go out on the 1st of every month.'],
    ['i kinda prefer tabs over spaces', 'The user kind of prefers tabs over spaces.'],
  ])('drops the filler of %j', (said, memory) => {
    expect(stored(said)).toEqual([memory]);
  });

  it.each([
    ['pa los deploys usamos argo, nada de kubectl a mano', 'Para los deploys usamos argo, nada de kubectl a mano.'],
    ['pal backend usamos go 1.22 siempre', 'Para el backend usamos go 1.22 siempre.'],
    [
      'las minutas de las reuniones en español porfa, el equipo no habla ingles',
      'Las minutas de las reuniones en español por favor, el equipo no habla ingles.',
    ],
    [
      'el bug de los timestamps ya me paso dos veces jaja, guardamos todo en UTC',
      'El bug de los timestamps ya me paso dos veces, guardamos todo en UTC.',
    ],
    // "mi pa" is the user's father.
    ['mi pa vive en rosario y no usa whatsapp', 'Mi pa vive en rosario y no usa whatsapp.'],
  ])('spells out the Spanish %j', (said, memory) => {
    expect(stored(said)).toEqual([memory]);
  });

  it('leaves a possessive "its", names in capitals and words that only look like shorthand', () => {
    expect(stored('the studio moved its classes to thursdays')).toEqual(['The studio moved its classes to thursdays.']);
    for (const text of [
      'the RN app ships to BC first',
      'Tho Nguyen owns the billing service',
      'the pantry is ours and its family is big',
      'the bcrypt cost is 12 and thorough reviews are the rule',
      'read src/w/index.ts',
      'the esp on the shelf runs micropython, its tmr fires every 5s',
    ])
      expect(spellOutShorthand(text)).toBe(text);
  });
});
