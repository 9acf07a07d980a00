/**
 * The inspector as the home owner uses it: the real `strata serve --all-scopes` (a child process on
 * loopback, a real temp home) driven by Debian's Chromium. One test per feature of issue 16 item 7,
 * each checked against what the API says. Screenshots go to $STRATA_INSPECTOR_SHOTS (default a
 * temp dir), never into the repository.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openBrowser, pageHelpers, skipBrowser } from './browser.js';
import { spawnServer, type SpawnedServer } from '../hosts/spawn-server.js';
import { seedOwnerHome, XSS_MEMORY, XSS_TURN, type OwnerSeed } from './owner-seed.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SHOTS = process.env.STRATA_INSPECTOR_SHOTS ?? join(tmpdir(), 'strata-inspector-shots');

describe.skipIf(skipBrowser)('web inspector, owner view, against strata serve', () => {
  let seed: OwnerSeed;
  let server: SpawnedServer;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  const { api, shot, open } = pageHelpers({ url: () => server.url, page: () => page, shots: SHOTS });

  beforeAll(async () => {
    // The machine is shared: a page answer may take seconds under load (the 1 s default is a timing assertion).
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 50 } } });
    await mkdir(SHOTS, { recursive: true });
    seed = await seedOwnerHome();
    server = await spawnServer(['--home', seed.home, '--all-scopes', 'serve', '--port', '0'], {
      STRATA_HTTP_TOKEN: '',
      STRATA_AGENT_ID: '',
    });
    ({ browser, page, pageErrors } = await openBrowser({ origins: () => [server.url] }));
  }, 90_000);

  afterAll(async () => {
    vi.resetConfig();
    await browser?.close();
    await server?.stop();
    if (seed) await rm(seed.home, { recursive: true, force: true });
  });

  it('shows a loading state while the first answer is slow, then the owner view of every scope', async () => {
    // Hold the first list answer back: the page must say it is loading, not show a blank area.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/v1/memories?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.url}/#/memories`);
    await expect.poll(() => page.getByTestId('loading').textContent()).toContain('Loading memories');
    await shot('loading');
    release();
    await page.unroute('**/api/v1/memories?*');
    await expect.poll(() => page.getByTestId('page-info').textContent()).toBe(`1–${seed.total} of ${seed.total}`);
    expect(await page.getByTestId('owner-badge').textContent()).toContain('Owner');
    expect(await page.getByTestId('owner-note').isVisible()).toBe(true);
    // Every scope of the home, not only the caller's `global`.
    const scopes = new Set(await page.locator('table.list tbody td.mono').allTextContents());
    expect(scopes).toEqual(new Set(Object.keys(seed.byScope)));
    expect(await page.locator('select[name=scope] option').allTextContents()).toContain('Agent reviewer');
    await shot('owner-memories');
  });

  it('filters the owner view by scope and by the agent a memory came from', async () => {
    await page.locator('select[name=scope]').selectOption('agent:reviewer');
    await expect.poll(() => page.getByTestId('page-info').textContent()).toBe(`1–2 of 2`);
    await page.locator('select[name=scope]').selectOption('');
    await page.locator('select[name=agent]').selectOption('ops');
    await expect.poll(() => page.getByTestId('page-info').textContent()).toBe(`1–${seed.byAgent.ops} of ${seed.byAgent.ops}`);
    const texts = await page.locator('table.list tbody td.text').allTextContents();
    const fromApi = (await api('/memories?agent=ops')).body.memories.map((m: Json) => m.text);
    expect(texts.sort()).toEqual(fromApi.sort());
    expect(page.url()).toContain('agent=ops');
  });

  it('charts memories over time and by category, scope and agent, as the API counts them, and says no LLM is configured', async () => {
    await open('#/overview');
    const time = page.getByTestId('chart-time');
    await time.waitFor();
    const bars = await time
      .locator('rect.bar')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-day'), Number(e.getAttribute('data-count'))]));
    // One bar per day from the first to the last, zeros included.
    expect(bars[0]).toEqual(['2026-11-01', 2]);
    expect(bars.filter(([, n]) => (n as number) > 0)).toEqual(Object.entries(seed.byDay).sort());
    expect(bars.find(([d]) => d === '2026-11-02')).toEqual(['2026-11-02', 0]);
    const counts = async (id: string) =>
      Object.fromEntries(
        await page
          .getByTestId(id)
          .locator('li')
          .evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), Number(e.getAttribute('data-count'))])),
      );
    expect(await counts('chart-scope')).toEqual(seed.byScope);
    expect(await counts('chart-agent')).toEqual(seed.byAgent);
    expect(await counts('chart-category')).toEqual((await api('/overview')).body.byCategory);
    // Human labels, not field names.
    expect(await page.getByTestId('chart-category').textContent()).toContain('Person or thing');
    const llm = page.getByTestId('llm-state');
    expect(await llm.getAttribute('data-configured')).toBe('false');
    expect(await llm.textContent()).toMatch(/No LLM configured[\s\S]*Works without one[\s\S]*Needs an LLM[\s\S]*STRATA_LLM_PROVIDER/);
    await shot('overview');
    // Usage leads with what to configure, not with a row of zero tiles.
    await open('#/usage');
    await expect.poll(() => page.getByTestId('llm-state').getAttribute('data-configured')).toBe('false');
    expect(await page.locator('.stat[data-stat=calls]').count()).toBe(0);
    await shot('usage-no-llm');
    await open('#/overview');
    // A chart row links to the filtered list.
    await page.getByTestId('chart-scope').getByRole('link', { name: 'Project strata' }).click();
    await expect.poll(() => page.getByTestId('page-info').textContent()).toBe('1–2 of 2');
  });

  it('browses sessions and turns, and links a memory to the turns it came from and back', async () => {
    await open('#/sessions');
    const rows = page.getByTestId('sessions').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(['reviewer', 'coder']);
    await page.locator('select[name=agent]').selectOption('coder');
    await expect.poll(() => rows.count()).toBe(1);
    await shot('sessions');
    await rows.getByRole('link', { name: 'agent:coder:main' }).click();
    const turns = page.getByTestId('turns');
    await expect.poll(() => turns.locator('.message').count()).toBe(3);
    // Back-links: the two cited turns name the memory learned from them; the third none.
    const cited = await turns.locator('.message').evaluateAll((els) => els.map((e) => e.querySelector('.cited a')?.textContent ?? null));
    expect(cited).toEqual(['Merges into main are squash merges', 'Merges into main are squash merges', null]);
    await shot('session');
    await turns.locator('.message').first().getByRole('link', { name: 'Merges into main are squash merges' }).click();
    await expect.poll(() => page.getByTestId('memory-text').textContent()).toBe('Merges into main are squash merges');
    // And from the memory's provenance to its turn in the session, which is highlighted.
    await page.getByTestId('provenance').getByRole('link', { name: 'open the conversation' }).click();
    await expect.poll(() => page.locator('.message.focused').getAttribute('data-turn')).toBe('c1');

    // Search within what was said (lexical: no embedder in this home).
    await open('#/sessions');
    await page.locator('input[name=cq]').fill('websocket');
    await page.getByRole('button', { name: 'Search conversations' }).click();
    const hits = page.getByTestId('conversation-hits');
    await expect.poll(() => hits.locator('li .body').first().textContent()).toBe('Review the flaky websocket test first.');
    await hits.getByRole('link', { name: 'open in its session' }).first().click();
    await expect.poll(() => page.locator('.message.focused').getAttribute('data-turn')).toBe('r1');
  });

  it('renders memory and turn text that is HTML as text', async () => {
    await open(`#/memory/${seed.xss}`);
    await expect.poll(() => page.getByTestId('memory-text').textContent()).toBe(XSS_MEMORY);
    expect(await page.getByTestId('memory-text').locator('img, script').count()).toBe(0);
    await open('#/session?agent=coder&key=agent%3Acoder%3Amain');
    await expect.poll(() => page.locator('[data-turn=c3] .body').textContent()).toBe(XSS_TURN);
    await open('#/memories?q=Payload');
    await expect.poll(() => page.locator('table.list tbody td.text').first().textContent()).toContain('Payload memory');
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });

  it('edits scope, confidence and text through update, with labels and the change in the history', async () => {
    const id = seed.distilled;
    await open(`#/memory/${id}`);
    await page.getByTestId('memory-text').waitFor();
    // Labels for people.
    const labels = await page.locator('dl.fields dt').allTextContents();
    expect(labels).toEqual(expect.arrayContaining(['Last changed', 'True since', 'Times recalled', 'Confidence']));
    expect(labels).not.toContain('updatedAt');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('textarea[name=text]').fill('Merges into main are always squash merges');
    await page.locator('form.edit select[name=scope]').selectOption('project:strata');
    await page.locator('input[name=confidence]').fill('0.6');
    await shot('memory-edit-scope');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Saved (text, scope, confidence)');
    expect((await api(`/memories/${id}`)).body).toMatchObject({
      text: 'Merges into main are always squash merges',
      scope: 'project:strata',
      confidence: 0.6,
    });
    const newest = page.getByTestId('history').locator('li').first();
    await expect
      .poll(() => newest.locator('.change').allTextContents())
      .toEqual(expect.arrayContaining(['scope agent:coder → project:strata', 'confidence 1.00 → 0.60']));
    expect(await newest.locator('.meta b').textContent()).toBe('Edited');
  });

  it('selects memories and forgets them in bulk after a confirmation (cancel keeps them)', async () => {
    await open('#/memories?scope=agent%3Areviewer');
    await expect.poll(() => page.getByTestId('page-info').textContent()).toBe('1–2 of 2');
    await page.locator('th.pick input').check();
    const bar = page.getByTestId('bulk-bar');
    expect(await bar.textContent()).toContain('2 selected');
    await bar.getByRole('button', { name: 'Forget selected' }).click();
    await bar.getByRole('button', { name: 'Cancel' }).click();
    expect((await api('/memories?scope=agent:reviewer')).body.total).toBe(2);
    await bar.getByRole('button', { name: 'Forget selected' }).click();
    expect(await bar.getByRole('alertdialog').textContent()).toContain('Forget 2 memories?');
    await shot('bulk-forget');
    await bar.getByRole('button', { name: 'Yes, forget 2' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Forgot 2 memories');
    await expect.poll(() => page.getByTestId('empty').count()).toBe(1);
    expect((await api('/memories?scope=agent:reviewer')).body.total).toBe(0);

    // A selection is dropped when the rows change, so nothing out of sight is forgotten.
    await open('#/memories?scope=agent%3Acoder');
    await page.locator('table.list tbody tr td.pick input').first().check();
    expect(await page.getByTestId('bulk-bar').textContent()).toContain('1 selected');
    await page.locator('select[name=scope]').selectOption('agent:ops');
    await expect.poll(() => page.getByTestId('bulk-bar').count()).toBe(0);
  });

  it('downloads an export and imports a file after a dry-run preview', async () => {
    await open('#/transfer');
    const before = (await api('/memories')).body.total as number;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSONL' }).click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id).sort()).toEqual(
      expect.arrayContaining((await api('/memories?limit=100')).body.memories.map((m: Json) => m.id)),
    );
    expect(download.suggestedFilename()).toMatch(/^strata-export-all-\d{4}-\d{2}-\d{2}\.jsonl$/);

    const file = [
      JSON.stringify({ text: 'Imported: the VPN needs a hardware key', scope: 'global', category: 'fact' }),
      JSON.stringify({ text: 'Imported: <b>bold</b> stays text', scope: 'project:strata' }),
      '{ not json',
    ].join('\n');
    await page
      .locator('input[name=import-file]')
      .setInputFiles({ name: 'mine.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Check (dry run)' }).click();
    const report = page.getByTestId('import-report');
    await expect.poll(() => page.getByTestId('import-count').textContent()).toBe('2');
    expect(await report.textContent()).toContain('Dry run: nothing was written');
    expect(await page.getByTestId('import-invalid').textContent()).toContain('line 3');
    expect(await page.getByTestId('import-preview').locator('td.text').allTextContents()).toEqual([
      'Imported: the VPN needs a hardware key',
      'Imported: <b>bold</b> stays text',
    ]);
    expect((await api('/memories')).body.total).toBe(before);
    await shot('import-preview');
    await page.getByRole('button', { name: 'Import 2' }).click();
    await expect.poll(() => page.getByTestId('import').getByRole('status').textContent()).toBe('Imported 2 memories.');
    expect((await api('/memories')).body.total).toBe(before + 2);
  });

  it('offers every agent’s scenes and persona to the owner, and recall over every scope', async () => {
    await open('#/layers');
    await expect.poll(() => page.locator('select[name=agent] option').allTextContents()).toEqual(['coder', 'ops', 'reviewer']);
    await expect.poll(() => page.getByTestId('persona').textContent()).toContain('No persona yet');
    await open('#/playground');
    await page.locator('input[name=query]').fill('pnpm');
    await page.getByRole('button', { name: 'Recall' }).click();
    // agent:coder is not the owner's own scope; recall still covers it.
    await expect
      .poll(() => page.getByTestId('stages').locator('tbody tr').first().textContent())
      .toContain('Coder uses pnpm in the web repo');
  });

  it('shows an API error as an error, not a blank page', async () => {
    await open('#/session?agent=coder&key=agent%3Acoder%3Anope');
    await expect.poll(() => page.locator('.error[role=alert]').textContent()).toMatch(/NOT_FOUND/);
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
