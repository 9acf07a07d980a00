import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { captureByRules } from './rules.js';
import { onlyNowSaysItPasses } from './lasting-now.js';
import { isPassingState } from './task-signals.js';

const learns = (text: string) => captureByRules({ text, role: 'user' }).length > 0;

describe('user sentences: talk of the moment told like a standing statement', () => {
  it('keeps out English work to turn to, this screen or file, hedged ideas, a sigh, a choice among options, a deed just done', () => {
    for (const text of [
      'from now on lets just focus on the invoice export',
      'from now on lets sort out the onboarding emails first',
      'going forward in this file use the parser you wrote',
      'from here on only run the smoke tests until we sort this out',
      'if we ever moved to azure would app service be cheaper',
      'maybe we should use tailwind idk',
      'always the same thing with gradle upgrades',
      'always snows when i book a ski trip lol',
      'i prefer the version with the table over the list one',
      'please never send that draft, i changed my mind',
      'the dishwasher is clogged again',
      'just got back from the dentist and my jaw hurts',
      'my basil has brown spots on the leaves whats up with that',
    ]) {
      expect(admit({ text, source: 'user' }).admitted, text).toBe(false);
      expect(learns(text), text).toBe(false);
    }
  });

  it('keeps out Spanish opinions of others however long their subject, suppositions, the work to turn to, plans and questions without a mark', () => {
    for (const text of [
      'el profe de bases de datos dice q nunca hay q usar select asterisco',
      'si algun dia nos pasamos a rust habria q reescribir el parser',
      'si fuera por mi migraria todo a deno',
      'a partir de ahora vamos con el bug del carrito',
      'ahora probemos con batch size 64 a ver q pasa',
      'mañana llevo el auto al mecanico a las 9',
      'nunca habia visto un stack trace tan largo jaja',
      'si el perro vomita dos veces q hago',
      'prefiero esa, la verde',
      'me quedo con la opcion c',
      'el docker build sigue corriendo, ya van 20 min',
      'todo este sprint vamos a estar con los reportes',
    ]) {
      expect(admit({ text, source: 'user' }).admitted, text).toBe(false);
      expect(learns(text), text).toBe(false);
    }
  });
});

describe('user sentences: standing statements the checks above must not lose', () => {
  it('reads a bare "now" or "anymore" with the user-message model: a lasting change is learned, a step of the work is not', () => {
    expect(onlyNowSaysItPasses('my sister lives with us now, so the spare room is taken')).toBe(true);
    expect(onlyNowSaysItPasses('the build is still failing now')).toBe(false);
    expect(onlyNowSaysItPasses('docker is running now')).toBe(false);
    for (const text of [
      'my sister lives with us now, so the spare room is taken',
      "we're not shipping a windows build anymore, mac and linux only",
      "dad can't drive anymore, so appointments need a taxi booked",
    ])
      expect(learns(text), text).toBe(true);
    for (const text of ['ok now do the same for the orders table', 'tests are green, merging now']) expect(learns(text), text).toBe(false);
  });

  it('does not read the Spanish "todo" ("everything") as a to-do, while TODO and WIP still mark work in flight', () => {
    expect(isPassingState('todo lo de facturacion lo llevo yo con holded')).toBe(false);
    expect(isPassingState('The export still has a TODO in the CSV writer.')).toBe(true);
    expect(learns('tenemos spotify familiar, los chicos escuchan todo ahi')).toBe(true);
  });

  it('learns choices told by their contrast, and Spanish standing requests with two pronouns or "eso" inside the sentence', () => {
    for (const text of [
      'ferries over flights for anything under five hours',
      'we buy loose leaf tea, not bags',
      'i only drink oat milk',
      'no new cron jobs without a runbook entry',
      'i learn best from a worked example',
      'la contraseña del wifi no me la pidas ni la anotes nunca, eso lo gestiono yo',
      'el ayuno intermitente no me sirvio, no me lo vuelvas a sugerir',
      'contestame en castellano aunque el ticket este en ingles',
    ])
      expect(learns(text), text).toBe(true);
  });
});
