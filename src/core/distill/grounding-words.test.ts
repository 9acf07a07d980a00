import { describe, expect, it } from 'vitest';
import { canonicalValue, isWeekday, namesAnArtifact, weekdays } from './grounding-words.js';

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

describe('namesAnArtifact', () => {
  it('finds paths, files, identifiers, versions, settings and code spans', () => {
    for (const text of [
      'The M-Claude repo is checked out at ~/Documents/M-Claude.',
      'There is no settings.json option for that.',
      'Route handlers go in src/app/api.',
      'Profile scripts live in /etc/profile.d and C:\\Users\\me.',
      'The code is on GitHub at M-Thisness/M-Claude.',
      'Avatar initials come from getInitials.',
      'Dialyzer treats MapSet as opaque.',
      'The schema_migrations table keeps the version.',
      'The summary shows stats.totalMembers.',
      'The Bash tool runs Git Bash (MSYS2).',
      'As of v0.8.0 a theme defines 44 tokens.',
      'The error colour is #dc2626.',
      'Commits skip hooks only with --no-verify.',
      'The DAG sets catchup=False.',
      'The key is `inv_line_${id}`.',
    ])
      expect(namesAnArtifact(text), text).toBe(true);
  });

  it('finds none in plain prose, numbers, names or abbreviations', () => {
    for (const text of [
      'Weekly mileage should not increase by more than 10%.',
      'Class file major version 65 corresponds to Java 21.',
      'The last frost in Leeds is usually around mid-May, e.g. the 15th.',
      'The bakery opens at 7:30 and sells about 1.060 loaves a week.',
      'Children on board need a lifejacket with a crotch strap.',
      'The clinic answers 24/7 and/or by email, at 60 km/h.',
    ])
      expect(namesAnArtifact(text), text).toBe(false);
  });
});
