import { describe, expect, it } from 'vitest';
import { rescheduledMemory } from './schedule-change.js';

const item = (id: string, text: string) => ({ text, since: 0, ref: { id } });
const moved = (text: string, ...texts: string[]) => rescheduledMemory({ text, memories: texts.map((t, i) => item(String(i), t)) })?.ref;

describe('a recurring thing moved to another day or hour', () => {
  it('finds the memory by its first word or two of its words, a time of the same kind that differs and a change marker', () => {
    expect(moved("Noor's piano got moved to friday 5pm.", "Noor's piano lessons are thursdays at 4pm.")).toEqual({ id: '0' });
    expect(moved("We're doing dinner 6:30 to 8 now.", 'Dinner for the guests is 7 to half 8.')).toEqual({ id: '0' });
    expect(moved('Los ensayos del coro pasaron a los jueves a las 20.', 'Los ensayos del coro son los martes a las 19.')).toEqual({
      id: '0',
    });
  });

  it('leaves a memory sharing one word that is not its own, another kind of time, no change marker, or two holders', () => {
    expect(moved("Priya's book club moved to thursdays at 8pm now.", 'Yoga classes with Priya are tuesdays at 7pm.')).toBeUndefined();
    expect(moved('The rust rewrite shipped to prod today.', 'We only deploy to prod on tuesdays and thursdays after 2pm.')).toBeUndefined();
    expect(moved('Dinner for the guests is 6:30 to 8.', 'Dinner for the guests is 7 to half 8.')).toBeUndefined();
    expect(
      moved("Noor's piano moved to friday 5pm.", "Noor's piano lessons are thursdays at 4pm.", "Noor's piano exam prep is mondays at 6pm."),
    ).toBeUndefined();
  });
});
