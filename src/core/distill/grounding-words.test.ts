import { describe, expect, it } from 'vitest';
import { canonicalValue, isWeekday, weekdays } from './grounding-words.js';

describe('weekdays', () => {
  it('reads a day however it is spelled, in English, Spanish and Chinese', () => {
    expect([...weekdays('tues and Thursdays, los sábados, 周三')].sort()).toEqual(['sat', 'thu', 'tue', 'wed']);
  });

  it('names no day inside a word or a password', () => {
    expect(weekdays('the password is Mon3dita#2024, the 2sat build')).toEqual(new Set());
    expect(weekdays('Monday3')).toEqual(new Set());
  });
});

describe('isWeekday', () => {
  it('is a day and nothing more', () => {
    for (const w of ['weds', 'Tuesday', 'sabados', 'miércoles', '周三', '星期天']) expect(isWeekday(w), w).toBe(true);
    for (const w of ['wednesday-standup', 'monday3', '周三下午去合唱团', 'sunset', 'sat.']) expect(isWeekday(w), w).toBe(false);
  });
});

describe('canonicalValue', () => {
  it('takes a day to its one name and leaves any other value as it is', () => {
    expect(canonicalValue('jueves')).toBe('thu');
    expect(canonicalValue('thurs')).toBe('thu');
    expect(canonicalValue('mon3dita')).toBe('mon3dita');
    expect(canonicalValue('5434')).toBe('5434');
  });
});
