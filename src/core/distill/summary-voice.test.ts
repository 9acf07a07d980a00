import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';
import { captureByRules } from './rules.js';
import { isPersonStatement, quotedWords } from './summary-voice.js';

const summary = (text: string) => admit({ text, source: 'summary' }).admitted;

describe('a compaction summary telling what it learned about a person', () => {
  it('keeps standing preferences, traits and ways of working, by name or pronoun', () => {
    for (const text of [
      'Priya wants every migration reviewed by a second person.',
      'She hates being called before 10am.',
      'User (Omar) does not want the staging cluster touched on Fridays.',
      'The user, Lena, is a data engineer at a logistics startup.',
      'Jonas has a severe nut allergy.',
      'He pushes and tags releases himself.',
      'Money: she keeps her freelance income in a separate account.',
    ]) {
      expect(isPersonStatement(text), text).toBe(true);
      expect(summary(text), text).toBe(true);
    }
  });

  it('leaves what someone did or asked for in this session to the other checks', () => {
    for (const text of [
      'She asked me to add a retry to the upload script.',
      'Priya pasted the stack trace from the failing job.',
      'Omar wanted to see the diff before merging.',
      'Prisma generates the client into node_modules.',
    ])
      expect(isPersonStatement(text), text).toBe(false);
    expect(summary('She asked me to add a retry to the upload script.')).toBe(false);
    expect(summary('Priya pasted the stack trace from the failing job.')).toBe(false);
  });
});

describe("the user's words quoted in a summary", () => {
  it('are judged as the user said them', () => {
    expect(quotedWords('Lena: "never run migrations against prod from a laptop".')).toBe('never run migrations against prod from a laptop');
    expect(summary('Lena: "never run migrations against prod from a laptop".')).toBe(true);
    expect(summary('"the api runs on port 8081 locally, 8080 is the old one"')).toBe(true);
    // A quoted one-off request stays junk.
    expect(summary('"run the load test again and show me the numbers"')).toBe(false);
  });
});

describe('offline capture from a summary', () => {
  it("learns a decision with its reason, an error with its fix, a person's standing preference", () => {
    const text = [
      '## Key Decisions',
      '- Chose SQLite over Postgres for the CLI cache: one file, no server to run on laptops.',
      '## Errors and fixes',
      '- Uploads failed with a 413 from nginx → raise client_max_body_size to 50m on the ingress.',
      '## Critical Context',
      '- Priya wants every migration reviewed by a second person.',
    ].join('\n');
    const found = captureByRules({ text, role: 'summary' }).map((c) => [c.category, c.text]);
    expect(found).toEqual([
      ['decision', 'Chose SQLite over Postgres for the CLI cache: one file, no server to run on laptops.'],
      ['lesson', 'Uploads failed with a 413 from nginx → raise client_max_body_size to 50m on the ingress.'],
      ['preference', 'Priya wants every migration reviewed by a second person.'],
    ]);
  });
});
