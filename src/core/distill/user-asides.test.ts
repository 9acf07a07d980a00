import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { normalizeStatement } from './normalize-statement.js';
import { captureByRules } from './rules.js';
import { isLeadIn } from './structure-signals.js';
import { featureBranchVeto } from './veto.js';

const capture = (text: string) => captureByRules({ text, role: 'user' });
const gate = (text: string) => admit({ text, source: 'user' });
const triggers = (text: string) => capture(text).map((c) => c.trigger);
/** Each text is learned, by the trigger family given. */
function expectLearnedAs(pairs: Array<[string, string]>): void {
  for (const [text, trigger] of pairs) expect(triggers(text), text).toEqual([trigger]);
}
/** Neither the gate admits any of `texts` nor the rules learn from it. */
function expectKeptOut(texts: string[]): void {
  for (const text of texts) {
    expect(gate(text).admitted, text).toBe(false);
    expect(capture(text), text).toEqual([]);
  }
}

describe('a tired body, a deadline, a grumble and the state of the work are not standing facts', () => {
  it('keeps out English aches, things that will not stop, a task due on a weekday and forgetting again', () => {
    expectKeptOut([
      'played five sets of tennis, arms are dead',
      'my elbow aches after tonights match',
      'the puppy won\u2019t stop barking and im so tired',
      'i keep forgetting to water the basil',
      'the client wants the mockups finished by friday',
    ]);
  });

  it('still learns a tool that is dead for good and a deadline that recurs', () => {
    expect(capture('the old jenkins box is dead, everything is on github actions').length).toBe(1);
    expect(capture('release notes must be done by friday every sprint').length).toBe(1);
  });

  it('keeps out Spanish opinions of what we should do, a server down, a branch in conflict and what was sent earlier', () => {
    expectKeptOut([
      'mi amigo Tomás dice q deberíamos reescribir el front en svelte',
      'el servidor de pruebas está caído desde anoche',
      'mi rama tiene conflictos con main, arreglalos',
      'usá el mismo formato q te mandé ayer',
    ]);
  });

  it('keeps out work on a feature branch, in English and Spanish, but not a branch naming rule', () => {
    for (const text of ['from now on push to the feature/invoice-pdf branch', 'trabajá en la rama feature/exportar-csv']) {
      expect(gate(text).reason, text).toBe('passing-state');
      expect(capture(text), text).toEqual([]);
    }
    expect(capture('branch names follow the feature/TICKET-slug pattern').length).toBe(1);
    expect(featureBranchVeto('branch names look like feature/OPS-12-retry, e.g. feature/OPS-7-login')).toBeUndefined();
    expect(featureBranchVeto('los nombres de rama son tipo feature/ticket, ej feature/PAY-3')).toBeUndefined();
  });

  it('reads a past-tense change word only as a whole word ("reescribí", not "reescribir")', () => {
    expect(triggers('reescribí el backend en go el año pasado')).toEqual(['change-told']);
  });
});

describe('standing statements told in their own words, without a trigger phrase', () => {
  it('learns English "X only, no Y" and a configured thing with ", not Y"', () => {
    expectLearnedAs([
      ['vinyl only pls, no streaming links', 'scoped-rule'],
      ['our helm charts pin image tags by sha, not latest', 'scoped-rule'],
    ]);
  });

  it('learns English lessons told as "that\'s by design", "lesson:" or "learned that last year", a birth date, a team scope and where things go', () => {
    expect(triggers("the staging cluster scales to zero overnight so the first request takes a minute, that's by design")).toEqual([
      'lesson',
    ]);
    expectLearnedAs([
      ['lesson: the greenhouse vents need opening before 9 or the seedlings cook', 'lesson'],
      ["book the campsite at loch lomond by march or it's full, learned that last year", 'lesson'],
      ["little oscar was born 2nd june, he's on formula", 'relation'],
      ['keep commit titles under 50 chars, everyone on this team reads the log', 'scoped-rule'],
      ['all invoices go in the shared finance folder', 'wiring'],
    ]);
  });

  it('reads "commit titles in this monorepo are ..." as a statement, and a list of commit prefixes as no lead-in', () => {
    expect(capture('commit titles in this monorepo are conventional commits (feat:, fix:, docs:)').length).toBe(1);
    expect(isLeadIn('los titulos de los PR van con prefijos, tipo feat: o chore:')).toBe(false);
    expect(isLeadIn("Here's the fix:")).toBe(true);
  });

  it('learns who is new to something or studying it, a scope over what the agent drafts and a sweet spot', () => {
    expectLearnedAs([
      ['im fairly new to kotlin so spell out the coroutine stuff', 'identity'],
      ['doing a part time diploma in horticulture at the local college', 'identity'],
      ['learning welsh, throw in the odd phrase if you like', 'identity'],
      ['use my nickname in anything you draft to my gran', 'scoped-rule'],
      ['batch size 64 has been the sweet spot on the small gpu', 'lesson'],
    ]);
  });

  it('learns Spanish rules and lessons with their own words', () => {
    expectLearnedAs([
      ['cero console.log en el código que va a producción', 'rule'],
      ['en los PR no se aceptan commits sin ticket', 'rule'],
      ['lo comprobamos en tres cosechas: el tomate cherry rinde más en maceta grande', 'lesson'],
    ]);
    expect(gate('para el backend usamos postgres, mysql no').admitted).toBe(true);
  });

  it('learns Spanish limits on the agent, concessions, schedules and who the user is by their own words', () => {
    expectLearnedAs([
      ['el deploy lo hago yo, vos limitate a preparar el changelog', 'rule'],
      ['pedime confirmación antes de borrar cualquier archivo', 'rule'],
      ['reservame hoteles céntricos aunque cuesten un poco más, odio el transporte', 'rule'],
      ['la panadería del barrio abre solo de mañana', 'rule'],
      ['la oficina cierra los festivos', 'habit'],
      ['antes de cada deploy reviso los logs de errores', 'habit'],
      ['soy principiante en python, andá despacio', 'self'],
      ['me manejo mejor con diagramas que con texto', 'preference'],
      ['los domingos ya no los trabajo', 'change'],
    ]);
  });

  it('reads "no exceptions" after a sentence as part of it', () => {
    expect(capture('lockfiles get committed with the change that needs them. no exceptions').map((c) => c.text)).toEqual([
      'Lockfiles get committed with the change that needs them, no exceptions.',
    ]);
  });

  it('reads the English phrase in a Spanish sentence ("I prefer tabs, los espacios me vuelven loco")', () => {
    expect(triggers('I prefer tabs, los espacios me vuelven loco')).toEqual(['preference']);
  });

  it('does not read a refusal of the moment or a pleasantry as a rule', () => {
    for (const text of ['mañana migro la base, hoy no', 'cero problemas, gracias']) expect(capture(text), text).toEqual([]);
  });
});

describe('normalised statements', () => {
  it('drop a sigh or a laugh at the end', () => {
    expect(normalizeStatement('the 7:40 train is always late ugh')).toBe('The 7:40 train is always late.');
    expect(normalizeStatement('we host on hetzner lmao')).toBe('We host on hetzner.');
  });
});
