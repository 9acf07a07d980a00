import { describe, expect, it } from 'vitest';
import { deviceSlotsOf } from './device-slots.js';
import { captureByRules } from './rules.js';
import { decideOffline, type CurrentItem } from './reconcile-offline.js';

const item = (id: string, text: string, since = 0): CurrentItem => ({ text, since, ref: { id } });
const decide = (text: string, current: CurrentItem[]) =>
  decideOffline({ text, statedAt: 100, current, similar: [], nearDuplicateThreshold: 0.92 });

describe("the speaker's phone, car and computer", () => {
  it.each([
    ['My phone is an iPhone 12 mini.', 'phone', 'iphone 12 mini'],
    ['Mi celular es un xiaomi redmi note 11.', 'phone', 'xiaomi redmi note 11'],
    ['The user drives a 2011 mazda 3 hatchback.', 'car', 'mazda 3'],
    ['Tengo un Clio del 2015 que arranca cuando quiere.', 'car', 'clio'],
    ['I code on a thinkpad x13 running arch.', 'computer', 'thinkpad x13'],
    ['Trabajo en una macbook pro m2 de 16 gigas.', 'computer', 'macbook pro m2'],
  ])('"%s" names the speaker\'s %s: %s', (text, slot, value) => {
    expect(deviceSlotsOf(text)).toEqual([expect.objectContaining({ slot, value })]);
  });

  it.each([
    ["My husband's car is a hyundai tucson."],
    ['Mi suegra maneja un fiat uno re viejo.'],
    ['Our QA test phone is a galaxy s21.'],
    ['Reproduce it on the emulator image of a pixel 8.'],
    ['The nightly build runs on an old mac mini in the closet.'],
    ['We went to a fiesta at the beach, I play golf on sundays.'],
    ['Priya drives a kia picanto to the station.'],
    ['I finally bought tesla shares in march.'],
    ['Tengo reunión con Mercedes los martes.'],
    ['my daughter just got a pixel 8a for her birthday'],
    ['my brother bought a ford puma last spring'],
  ])('"%s" names no device of the speaker', (text) => {
    expect(deviceSlotsOf(text)).toEqual([]);
  });

  it('a new device replaces the one held, in English and in Spanish, though the two share no word', () => {
    const phone = item('phone', "The user's phone is an iPhone 12 mini.");
    expect(decide('Just bought a pixel 9, so they are on android now.', [phone])).toMatchObject({
      kind: 'supersede',
      target: { id: 'phone' },
    });
    const celu = item('celu', 'Mi celular es un xiaomi redmi note 11.');
    expect(decide('Me regalaron un iphone 14 para el cumple.', [celu])).toMatchObject({ kind: 'supersede', target: { id: 'celu' } });
    const laptop = item('laptop', 'The user codes on a thinkpad x13 running arch.');
    expect(decide('The studio handed me a macbook pro m3 this week.', [laptop])).toMatchObject({ target: { id: 'laptop' } });
  });

  it('a device dropped by its plain noun ends the memory of that device', () => {
    const car = item('car', 'The user drives a 2011 mazda 3 hatchback.');
    expect(decide('We sold the car in june, bikes only from here.', [car])).toMatchObject({ kind: 'supersede', target: { id: 'car' } });
    const auto = item('auto', 'Tengo un Clio del 2015 que arranca cuando quiere.');
    expect(decide('Vendimos el auto, ahora vamos en tren.', [auto])).toMatchObject({ kind: 'supersede', target: { id: 'auto' } });
  });

  it("leaves both when nothing says the device is new, when they are for work and for home, or when they are someone else's", () => {
    const phone = item('phone', 'Tengo un iphone 13.');
    expect(decide('Tengo un pixel 7 con la pantalla rota.', [phone]).kind).toBe('create');
    const work = item('work', "The user's work laptop is a thinkpad t14.");
    expect(decide('At home they now edit photos on a macbook air m2.', [work]).kind).toBe('create');
    const car = item('car', 'The user drives a 2011 mazda 3 hatchback.');
    expect(decide("My wife's car is a new toyota corolla.", [car]).kind).toBe('create');
  });

  it('an older statement of another device never replaces the newer one', () => {
    const now = item('now', "The user's phone is a pixel 9 now.", 200);
    expect(decide('Got an iPhone 12 mini.', [now])).toMatchObject({ kind: 'skip', target: { id: 'now' } });
  });

  it('a new device told without "I", or before a question, is learned as news', () => {
    const learn = (text: string) => captureByRules({ text, role: 'user' }).map((c) => c.text);
    expect(learn('got a galaxy s23 last week, how do i move my photos off the old one?')).toEqual(['Got a galaxy s23 last week.']);
    expect(learn('just got a pixel 8a')).toEqual(['Just got a pixel 8a.']);
    expect(learn('my daughter just got a pixel 8a for her birthday')).toEqual([]);
  });
});
