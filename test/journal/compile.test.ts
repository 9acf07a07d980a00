import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileJournal, lintJournal, parseArticle, slugify } from '../../src/core/journal/index.js';
import type { ScriptedReply } from '../support/scripted-llm-server.js';
import { journalDay, journalEnv, promptOf, type JournalEnv } from './helpers.js';

let env: JournalEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const T0 = '2026-11-21T12:00:00.000Z';
const at = (ms: number) => () => new Date(Date.parse(T0) + ms);
const MIN = 60_000;

function articles(
  list: Array<{ slug: string; title: string; kind: 'concept' | 'connection' | 'qa'; summary: string; body: string }>,
): ScriptedReply {
  return { kind: 'text', text: JSON.stringify({ articles: list }) };
}

async function writeDay(home: string, day: string, text: string): Promise<void> {
  await mkdir(join(home, 'journal'), { recursive: true });
  await writeFile(journalDay(home, day), text);
}

describe('compileJournal', () => {
  it('compiles only changed logs after the interval into linked articles with an index', async () => {
    env = await journalEnv({
      script: [
        articles([
          {
            slug: 'Blue-Green Deploys',
            title: 'Blue-green deploys',
            kind: 'concept',
            summary: 'Two stacks, switch traffic.',
            body: 'We deploy with two stacks. See [[Rollback Plan]].',
          },
          {
            slug: 'rollback-plan',
            title: 'Rollback plan',
            kind: 'concept',
            summary: 'How to go back.',
            body: 'Switch back to the old stack ([[blue-green-deploys]]).',
          },
          {
            slug: '../../escape',
            title: 'Escape attempt',
            kind: 'qa',
            summary: 'Q: can a slug leave the folder?',
            body: 'A: no. Related: [[blue-green-deploys|deploys]].',
          },
        ]),
        articles([
          {
            slug: 'rollback-plan',
            title: 'Rollback plan',
            kind: 'concept',
            summary: 'How to go back, now tested.',
            body: 'Switch back ([[blue-green-deploys]]); tested on 11-21.',
          },
        ]),
      ],
    });
    const day1 = '# Journal 2026-11-21\n\n## 10:00 UTC · session s1\n\n**Decisions:**\n- Use blue-green deploys\n\n';
    await writeDay(env.home, '2026-11-21', day1);

    const first = await compileJournal({ home: env.home, llm: env.llm, now: at(0) });
    expect(first).toMatchObject({
      status: 'compiled',
      days: ['2026-11-21'],
      created: ['blue-green-deploys', 'rollback-plan', 'escape'],
      updated: [],
      articles: 3,
    });
    expect(promptOf(env.server.requests[0])).toContain('Use blue-green deploys');
    const knowledge = join(env.home, 'journal', 'knowledge');
    expect((await readdir(knowledge)).filter((n) => n.endsWith('.md')).sort()).toEqual([
      'blue-green-deploys.md',
      'escape.md',
      'index.md',
      'rollback-plan.md',
    ]);
    expect(await readdir(env.home)).not.toContain('escape.md');
    const bg = parseArticle('blue-green-deploys', await readFile(join(knowledge, 'blue-green-deploys.md'), 'utf8'));
    expect(bg).toMatchObject({
      title: 'Blue-green deploys',
      kind: 'concept',
      sources: ['2026-11-21'],
      body: 'We deploy with two stacks. See [[rollback-plan]].',
    });
    const index = await readFile(join(knowledge, 'index.md'), 'utf8');
    expect(index).toContain(
      '## Concepts\n\n- [[blue-green-deploys]] Blue-green deploys — Two stacks, switch traffic.\n- [[rollback-plan]] Rollback plan — How to go back.',
    );
    expect(index).toContain('## Questions and answers\n\n- [[escape]]');
    expect(await lintJournal({ home: env.home })).toEqual({ ok: true, articles: 3, brokenLinks: [], orphans: [], missingIndex: false });

    // Unchanged: nothing to do, no LLM call.
    const unchanged = await compileJournal({ home: env.home, llm: env.llm, now: at(90 * MIN), force: true });
    expect(unchanged).toMatchObject({ status: 'skipped', reason: 'no day log changed since the last compile' });
    expect(env.server.requests).toHaveLength(1);

    // Changed inside the interval: waits; --force compiles it, sending only the appended part.
    const added = '## 11:00 UTC · session s2\n\n**Lessons:**\n- Rollback was tested\n\n';
    await appendFile(journalDay(env.home, '2026-11-21'), added);
    const early = await compileJournal({ home: env.home, llm: env.llm, now: at(10 * MIN) });
    expect(early.status).toBe('skipped');
    expect(early.waiting).toEqual([{ day: '2026-11-21', dueAt: '2026-11-21T13:00:00.000Z' }]);
    expect(env.server.requests).toHaveLength(1);

    const forced = await compileJournal({ home: env.home, llm: env.llm, now: at(11 * MIN), force: true });
    expect(forced).toMatchObject({ status: 'compiled', created: [], updated: ['rollback-plan'], articles: 3 });
    const prompt = promptOf(env.server.requests[1]);
    expect(prompt).toContain('Rollback was tested');
    expect(prompt).not.toContain('Use blue-green deploys'); // already compiled
    expect(prompt).toContain('<article slug="rollback-plan">'); // existing articles are shown for updating
    const rollback = parseArticle('rollback-plan', await readFile(join(knowledge, 'rollback-plan.md'), 'utf8'));
    expect(rollback.summary).toBe('How to go back, now tested.');
    expect(rollback.created).toBe(T0);
    expect(rollback.updated).toBe(at(11 * MIN)().toISOString());
  });

  it('compiles a changed log once the interval has passed', async () => {
    env = await journalEnv({
      script: [
        articles([{ slug: 'a', title: 'A', kind: 'concept', summary: 'a', body: 'A.' }]),
        articles([{ slug: 'b', title: 'B', kind: 'concept', summary: 'b', body: 'B, see [[a]].' }]),
      ],
    });
    await writeDay(env.home, '2026-11-20', '# Journal 2026-11-20\n\nfirst\n');
    expect((await compileJournal({ home: env.home, llm: env.llm, now: at(0) })).status).toBe('compiled');
    await appendFile(journalDay(env.home, '2026-11-20'), 'second\n');
    expect((await compileJournal({ home: env.home, llm: env.llm, now: at(59 * MIN) })).status).toBe('skipped');
    const due = await compileJournal({ home: env.home, llm: env.llm, now: at(60 * MIN) });
    expect(due).toMatchObject({ status: 'compiled', days: ['2026-11-20'], created: ['b'] });
    expect(env.server.requests).toHaveLength(2);
  });
});

describe('lintJournal', () => {
  it('finds a planted broken link and an orphan article', async () => {
    env = await journalEnv();
    const knowledge = join(env.home, 'journal', 'knowledge');
    await mkdir(knowledge, { recursive: true });
    await writeFile(join(knowledge, 'index.md'), '# Knowledge index\n\n- [[alpha]]\n');
    await writeFile(
      join(knowledge, 'alpha.md'),
      '---\ntitle: "Alpha"\nkind: "concept"\n---\n\n# Alpha\n\nSee [[beta]] and [[Missing Page]].\n',
    );
    await writeFile(join(knowledge, 'beta.md'), '# Beta\n\nBack to [[alpha]].\n');
    await writeFile(join(knowledge, 'lonely.md'), '# Lonely\n\nLinks to itself: [[lonely]]; code is not a link: `[[nowhere]]`.\n');
    const result = await lintJournal({ home: env.home });
    expect(result).toEqual({
      ok: false,
      articles: 3,
      brokenLinks: [{ from: 'alpha', target: 'missing-page' }],
      orphans: ['lonely'],
      missingIndex: false,
    });
  });

  it('slugs never escape the folder', () => {
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('/abs/path.md')).toBe('abs-path-md');
    expect(slugify('index')).toBe('index-article');
    expect(slugify('...')).toBe('');
  });
});
