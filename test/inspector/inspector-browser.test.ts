/**
 * The web inspector end to end: the real server on a seeded home, driven by Debian's Chromium via
 * playwright-core. Screenshots of each main screen go to test-artifacts/inspector/.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openBrowser, pageHelpers, skipBrowser } from './browser.js';
import { resolveCaller } from '../../src/core/caller.js';
import { startHttpServer } from '../../src/hosts/http/server.js';
import type { ListeningServer } from '../../src/hosts/shared/listen.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { seedHome, XSS_TEXT, type Seeded } from './seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHOTS = join(REPO_ROOT, 'test-artifacts', 'inspector');

describe.skipIf(skipBrowser)('web inspector in Chromium', () => {
  let seeded: Seeded;
  let server: ListeningServer;
  let guarded: ListeningServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const { api, shot, open } = pageHelpers({ url: () => server.url, page: () => page, shots: SHOTS });

  beforeAll(async () => {
    // The machine is shared: a page answer may take seconds under load (the 1 s default is a timing assertion).
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 50 } } });
    await mkdir(SHOTS, { recursive: true });
    seeded = await seedHome();
    const caller = resolveCaller({ config: seeded.strata.config, agentId: 'coder' });
    server = await startHttpServer({ strata: seeded.strata, caller, host: '127.0.0.1', port: 0 });
    guarded = await startHttpServer({ strata: seeded.strata, caller, host: '127.0.0.1', port: 0, token: 'tok-inspector' });
    ({ browser, page, pageErrors } = await openBrowser({ origins: () => [server.url, guarded.url] }));
  }, 60_000);

  afterAll(async () => {
    vi.resetConfig();
    await browser?.close();
    await server?.close();
    await guarded?.close();
    await seeded?.strata.close();
    if (seeded) await rm(seeded.home, { recursive: true, force: true });
  });

  it('lists, pages, filters and searches memories', async () => {
    await open('');
    const info = page.getByTestId('page-info');
    await expect.poll(() => info.textContent()).toBe(`1–25 of ${seeded.visible}`);
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(25);
    await shot('memories');
    await page.getByRole('button', { name: 'Next →' }).click();
    await expect.poll(() => info.textContent()).toBe(`26–${seeded.visible} of ${seeded.visible}`);

    await page.locator('select[name=scope]').selectOption('project:strata');
    await expect.poll(() => info.textContent()).toBe('1–13 of 13');
    const scopes = await page.locator('table.list tbody td.mono').allTextContents();
    expect(new Set(scopes)).toEqual(new Set(['project:strata']));
    await page.locator('select[name=category]').selectOption('rule');
    await expect.poll(() => page.locator('table.list tbody tr').count()).toBe(4);
    await expect.poll(() => info.textContent()).toBe('1–4 of 4'); // the total follows the category filter
    await page.locator('input[name=tag]').fill('ownership');
    await page.locator('input[name=tag]').press('Enter');
    // Rules are topics 0, 3, 6, 9; tagged are the even ones: 0 and 6.
    await expect
      .poll(() => page.locator('table.list tbody td.text').allTextContents())
      .toEqual(['Project note 7: the CDN edge is owned by team G', 'Project note 1: the billing service is owned by team A']);
    await expect.poll(() => info.textContent()).toBe('1–2 of 2');
    expect(page.url()).toContain('category=rule');

    await open('#/memories');
    await page.locator('input[name=q]').fill('deploy tuesdays');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect
      .poll(() => page.locator('table.list tbody td.text').first().textContent())
      .toBe('API deploys happen on Tuesdays, never on Fridays');
    await shot('search');
  });

  it('shows a distilled memory with its source messages and history', async () => {
    await page.locator('table.list tbody td.text a').first().click();
    await expect.poll(() => page.getByTestId('memory-text').textContent()).toBe('API deploys happen on Tuesdays, never on Fridays');
    const prov = page.getByTestId('provenance');
    await expect.poll(() => prov.locator('[data-field="source.kind"]').textContent()).toBe('distill');
    expect(await prov.locator('[data-field="source.agentId"]').textContent()).toBe('coder');
    expect(await prov.locator('[data-field="source.sessionKey"]').textContent()).toBe('agent:coder:main');
    expect(await prov.locator('.message .body').allTextContents()).toEqual([
      'We always deploy the API on Tuesdays, never on Fridays.',
      'Noted: API deploys happen on Tuesdays only.',
    ]);
    expect(await prov.textContent()).not.toContain('DECOY');
    expect(await page.locator('[data-field=importance]').textContent()).toBe('0.90');
    expect(await page.getByTestId('history').locator('li').count()).toBe(1);
    await shot('memory-provenance');
  });

  it('edits, reverts, forgets and restores a memory, and the API agrees each time', async () => {
    const id = seeded.ids.edited;
    await open(`#/memory/${id}`);
    const text = page.getByTestId('memory-text');
    await expect.poll(() => text.textContent()).toBe('The staging cluster runs Postgres 16');
    const history = page.getByTestId('history');
    expect(await history.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(['update', 'create']);
    expect(await history.locator('li').first().locator('del').first().textContent()).toBe('The staging cluster runs Postgres 15');

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('textarea[name=text]').fill('The staging cluster runs Postgres 17');
    await page.locator('form.edit select[name=category]').selectOption('decision');
    await page.locator('input[name=importance]').fill('0.35');
    await page.locator('form.edit input[name=tags]').fill('db, staging');
    await shot('memory-edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => text.textContent()).toBe('The staging cluster runs Postgres 17');
    expect(await page.getByRole('status').textContent()).toContain('Saved');
    expect(await page.locator('[data-field=tags]').textContent()).toBe('dbstaging');
    expect((await api(`/memories/${id}`)).body).toMatchObject({
      text: 'The staging cluster runs Postgres 17',
      category: 'decision',
      importance: 0.35,
      tags: ['db', 'staging'],
    });
    await expect.poll(() => history.locator('li').count()).toBe(3);
    // The newest entry shows what changed, importance and tags included.
    expect(await history.locator('li').first().locator('.change').allTextContents()).toEqual([
      'text The staging cluster runs Postgres 16 → The staging cluster runs Postgres 17',
      'category fact → decision',
      'importance 0.70 → 0.35',
      'tags — → db, staging',
    ]);

    await page.getByRole('button', { name: 'Revert last change' }).click();
    await expect.poll(() => text.textContent()).toBe('The staging cluster runs Postgres 16');
    expect((await api(`/memories/${id}`)).body).toMatchObject({ text: 'The staging cluster runs Postgres 16', category: 'fact', tags: [] });

    await page.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('button', { name: 'Yes, forget' }).click();
    await expect.poll(() => page.getByTestId('forgotten').count()).toBe(1);
    expect((await api(`/memories/${id}`)).status).toBe(404);
    await shot('memory-forgotten');
    await page.getByRole('button', { name: 'Revert last change' }).click();
    await expect.poll(() => text.textContent()).toBe('The staging cluster runs Postgres 16');
    expect((await api(`/memories/${id}`)).status).toBe(200);

    // Back to the very first version: the one before the CLI's update (oldest update entry).
    const firstUpdate = history.locator('li[data-action=update]').last();
    expect(await firstUpdate.locator('del').first().textContent()).toBe('The staging cluster runs Postgres 15');
    await firstUpdate.getByRole('button', { name: 'Restore the version before this change' }).click();
    await expect.poll(() => text.textContent()).toBe('The staging cluster runs Postgres 15');
    expect((await api(`/memories/${id}`)).body).toMatchObject({ text: 'The staging cluster runs Postgres 15', importance: 0.5 });
    await shot('memory-history');
  });

  it('renders HTML in memory text as text', async () => {
    await open(`#/memory/${seeded.ids.xss}`);
    const text = page.getByTestId('memory-text');
    await expect.poll(() => text.textContent()).toBe(XSS_TEXT);
    expect(await text.locator('img, script').count()).toBe(0);
    await open('#/memories?q=payload');
    await expect.poll(() => page.locator('table.list tbody td.text').first().textContent()).toBe(XSS_TEXT);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
  });

  it('shows every recall stage’s scores in the playground, as the API computes them', async () => {
    await open('#/playground');
    await page.locator('input[name=query]').fill('who owns the billing service');
    await page.locator('input[name=scope][value="agent:coder"]').uncheck();
    await page.locator('select[name=rerank]').selectOption('on');
    await page.locator('input[name=limit]').fill('3');
    await page.getByRole('button', { name: 'Recall' }).click();
    const table = page.getByTestId('stages');
    await table.waitFor();
    const first = table.locator('tbody tr').first();
    expect(await first.locator('td.text').textContent()).toBe('Project note 1: the billing service is owned by team A');
    const cells = await first.locator('td.num').allTextContents();
    // #, lexical, vector, fused, rerank, scored, final: every stage ran and shows a number.
    expect(cells).toHaveLength(7);
    for (const cell of cells.slice(1)) expect(cell).toMatch(/\d\.\d{3}/);
    const expected = await api('/recall', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'who owns the billing service',
        scopes: ['global', 'project:strata', 'agent:reviewer'],
        rerank: true,
        limit: 3,
        explain: true,
      }),
    });
    const top = expected.body.explain.candidates[0] as Json;
    expect(cells[6]).toBe(top.final.score.toFixed(3));
    expect(cells[1]).toContain(top.lexical.normalized.toFixed(3));
    expect(await table.locator('tbody tr.dropped').count()).toBeGreaterThan(0);
    expect(await table.locator('tbody tr.dropped td.outcome').first().textContent()).toMatch(/dropped at (limit|min-score|fusion)/);
    expect(await table.locator('td.mono').allTextContents()).not.toContain('agent:coder');
    await shot('playground');
  });

  it('reads the persona and scenes per agent', async () => {
    await open('#/layers');
    const persona = page.getByTestId('persona');
    await expect
      .poll(() => persona.locator('.doc').textContent())
      .toBe('# Coder persona\n\nPrefers small pull requests. <b>not bold</b>\n');
    expect(await persona.locator('b').count()).toBe(0);
    await page.getByRole('button', { name: 'deploys' }).click();
    const scene = page.getByTestId('scene');
    await expect
      .poll(() => scene.locator('.doc').textContent())
      .toBe('## Deploys\n\nTuesdays only; the checklist is in docs/RELEASING.md.\n');
    expect(await scene.textContent()).toContain('How releases go out');
    await shot('layers');
    await page.locator('select[name=agent]').selectOption('reviewer');
    await expect.poll(() => persona.locator('.doc').textContent()).toContain('Reads every diff twice.');
    expect(await page.locator('main').textContent()).toContain('No scenes yet.');
  });

  it('shows usage and cost per month and per model', async () => {
    await open('#/usage');
    await expect.poll(() => page.locator('[data-stat=calls] .value').textContent()).toBe('3');
    expect(await page.locator('[data-stat=cost] .value').textContent()).toBe('$0.0325');
    expect(await page.locator('[data-stat="unpriced calls"] .value').textContent()).toBe('1');
    const rows = (id: string) =>
      page
        .getByTestId(id)
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(await rows('by-month')).toEqual([
      ['2026-11', '2', '1', '11,000', '1,700', '$0.0200 +1 unpriced'],
      ['2026-10', '1', '0', '5,000', '800', '$0.0125'],
    ]);
    expect((await rows('by-model')).map((r) => [r[0], r[1], r[5]])).toEqual([
      ['openai:gpt-4o-mini', '2', '$0.0325'],
      ['anthropic:claude-haiku', '1', '$0.0000 +1 unpriced'],
    ]);
    await expect.poll(() => page.getByTestId('stats').textContent()).toContain(`(${seeded.visible} current in this caller's scopes)`);
    await shot('usage');
    await page.locator('input[name=since]').fill('2026-11-01');
    await expect.poll(() => page.locator('[data-stat=calls] .value').textContent()).toBe('2');
  });

  it('asks for the token on a protected server and sends it with every API call', async () => {
    const tokenPage = await browser.newPage({ viewport: { width: 1280, height: 600 } });
    tokenPage.on('pageerror', (e) => pageErrors.push(e.message));
    const seen: Array<string | null> = [];
    tokenPage.on('request', (r) => r.url().includes('/api/v1/') && seen.push(r.headers().authorization ?? null));
    try {
      await tokenPage.goto(`${guarded.url}/`);
      await tokenPage.getByText('This server needs a bearer token.').waitFor();
      await tokenPage.locator('input[name=token]').fill('wrong');
      await tokenPage.getByRole('button', { name: 'Use token' }).click();
      await tokenPage.getByText('The server rejected this token.').waitFor();
      await tokenPage.screenshot({ path: join(SHOTS, 'token.png') });
      await tokenPage.locator('input[name=token]').fill('tok-inspector');
      await tokenPage.getByRole('button', { name: 'Use token' }).click();
      await expect.poll(() => tokenPage.getByTestId('page-info').textContent()).toBe(`1–25 of ${seeded.visible}`);
      expect(await tokenPage.evaluate(() => sessionStorage.getItem('strata.token'))).toBe('tok-inspector');
      expect(seen.slice(0, 2)).toEqual([null, 'Bearer wrong']);
      expect(seen.at(-1)).toBe('Bearer tok-inspector');
      await tokenPage.goto(`${guarded.url}/#/usage`);
      await expect.poll(() => tokenPage.locator('[data-stat=calls] .value').textContent()).toBe('3');
    } finally {
      await tokenPage.close();
    }
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
