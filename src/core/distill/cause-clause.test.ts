import { describe, expect, it } from 'vitest';
import { causeAsStatement } from './cause-clause.js';
import { captureByRules } from './rules.js';
import { fold } from './spanish.js';
import { spanishMomentKind } from './spanish-user.js';

const learn = (text: string) => captureByRules({ text, role: 'user' }).map((c) => c.text);

describe('a reason left when the request after it is cut off', () => {
  it('is stored as the statement it makes, in English and Spanish', () => {
    expect(learn("since i'm the only one who keeps the tide tables updated, can you write me a cron for it")).toEqual([
      'The user is the only one who keeps the tide tables updated.',
    ]);
    expect(learn('because we host the wiki on a raspberry pi 4, how do i back it up?')).toEqual(['We host the wiki on a raspberry pi 4.']);
    expect(learn('as we deploy the booking site on netlify, how do i add a redirect?')).toEqual(['We deploy the booking site on netlify.']);
    expect(learn('como la tienda la tenemos en woocommerce, armame un script para exportar pedidos')).toEqual([
      'La tienda la tenemos en woocommerce.',
    ]);
    expect(learn('ya que trabajo con dos monitores verticales, recomendame un layout para tmux')).toEqual([
      'Trabajo con dos monitores verticales.',
    ]);
  });

  it('keeps a head that has its own main clause, a role, an idiom or a retelling as it is', () => {
    // A second subject opens the main clause; a comma inside the head too.
    expect(causeAsStatement('since the ferry timetable changed we leave at 7', { spanish: false })).toBe(
      'since the ferry timetable changed we leave at 7',
    );
    expect(causeAsStatement('since the reorg, billing belongs to us', { spanish: false })).toBe('since the reorg, billing belongs to us');
    expect(causeAsStatement('as a locksmith i carry the van keys', { spanish: false })).toBe('as a locksmith i carry the van keys');
    expect(causeAsStatement('como siempre el repo de infra va aparte', { spanish: true })).toBe('como siempre el repo de infra va aparte');
    expect(causeAsStatement('como buen cordobés tomo fernet', { spanish: true })).toBe('como buen cordobés tomo fernet');
    expect(causeAsStatement('como te dije usamos bitbucket', { spanish: true })).toBe('como te dije usamos bitbucket');
    expect(causeAsStatement('the kiln fires at 1280', { spanish: false })).toBe('the kiln fires at 1280');
  });
});

describe('a question typed without its mark', () => {
  it('is not learned, in English or in Spanish', () => {
    for (const text of [
      'what nozzle size is best for petg on an ender 3',
      'does the allotment society allow polytunnels or only cold frames',
      'how long is the drive from tralee to cork airport',
      'which bank is cheapest for a sole trader account',
      'como configuro el wifi de la impresora brother sin el cd',
      'donde pongo las credenciales de la api de pagos del club',
    ])
      expect(learn(text), text).toEqual([]);
  });

  it('leaves a statement that opens with a question word', () => {
    expect(learn('what i want from the weekly report is a short list of blockers')).toHaveLength(1);
    expect(learn('when the tide is out we walk the dogs on the strand')).toHaveLength(1);
    expect(spanishMomentKind(fold('donde vivo no hay fibra óptica'))).toBeUndefined();
    expect(spanishMomentKind(fold('como tengo moto nunca pago aparcamiento'))).toBeUndefined();
    expect(spanishMomentKind(fold('donde pongo el archivo de la llave'))).toMatchObject({ reason: 'question' });
  });
});
