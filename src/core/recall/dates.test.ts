import { describe, expect, it } from 'vitest';
import { dateMatch, parseQueryTime } from './dates.js';

const now = new Date('2023-10-20T12:00:00Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
async function range(query: string): Promise<[string, string] | null> {
  const r = await parseQueryTime({ query, now });
  return r ? [new Date(r.start).toISOString().slice(0, 10), new Date(r.end).toISOString().slice(0, 10)] : null;
}

describe('time named in a query', () => {
  it('reads days, months, years, weeks and relative days as ranges', async () => {
    expect(await range('what did we decide on 8 May 2022?')).toEqual(['2022-05-08', '2022-05-09']);
    expect(await range('what happened in the last week of August')).toEqual(['2023-08-25', '2023-09-01']);
    expect(await range('what did we decide last Tuesday')).toEqual(['2023-10-17', '2023-10-18']);
    expect(await range('How many times did she go to the beach in 2023?')).toEqual(['2023-01-01', '2024-01-01']);
    expect(await range('What setback did Melanie face in October 2023?')).toEqual(['2023-10-01', '2023-11-01']);
    expect(await range('a road trip last year')).toEqual(['2022-01-01', '2023-01-01']);
    expect(await range('the week before 9 June 2023')).toEqual(['2023-06-02', '2023-06-09']);
  });

  it('an explicit date wins over a relative phrase in the same query', async () => {
    expect(await range('What did Maria do last weekend before April 10, 2023?')).toEqual(['2023-04-10', '2023-04-11']);
  });

  it('finds no time in ordinary questions', async () => {
    for (const q of ["What's my dog called?", 'which database did we pick for billing?', 'May I ask something?'])
      expect(await range(q)).toBeNull();
  });

  it('matches dates in the range and the week after it fully, then halves per range length', async () => {
    const r = (await parseQueryTime({ query: 'on 8 May 2022', now }))!;
    expect(dateMatch({ time: day('2022-05-08'), range: r })).toBe(1);
    expect(dateMatch({ time: day('2022-05-12'), range: r })).toBe(1);
    expect(dateMatch({ time: day('2022-05-23'), range: r })).toBeCloseTo(0.5, 1);
    expect(dateMatch({ time: day('2021-05-08'), range: r })).toBeLessThan(0.01);
  });
});
