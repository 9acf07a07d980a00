/**
 * Debian's Chromium driven by playwright-core for the inspector tests (Playwright never downloads
 * a browser here; `.ci/run` installs chromium). A page that records its errors and may fetch only
 * from the given servers.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** In CI chromium is installed, so a missing binary there is a failure, not a skip. */
export const skipBrowser = !existsSync(CHROMIUM) && !process.env.CI;
if (skipBrowser) console.warn(`inspector browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium); CI always runs them.`);

export async function openBrowser(options: { origins: () => string[] }): Promise<{ browser: Browser; page: Page; pageErrors: string[] }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // 404s are answers here (no history, no scenes): Chromium still logs them as failed loads.
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 404') && pageErrors.push(m.text()));
  // Nothing may be fetched from anywhere but these servers.
  await page.route('**/*', (route) =>
    options.origins().some((o) => route.request().url().startsWith(o)) ? route.continue() : route.abort(),
  );
  return { browser, page, pageErrors };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The helpers every inspector browser test uses: the API as JSON, a screenshot, a page by its hash. */
export function pageHelpers(options: { url: () => string; page: () => Page; shots: string }) {
  return {
    api: async (path: string, init?: RequestInit): Promise<{ status: number; body: Json }> => {
      const res = await fetch(`${options.url()}/api/v1${path}`, init);
      return { status: res.status, body: (await res.json()) as Json };
    },
    shot: (name: string) => options.page().screenshot({ path: `${options.shots}/${name}.png`, fullPage: true }),
    open: async (hash: string) => {
      await options.page().goto(`${options.url()}/${hash}`);
      await options.page().locator('main').waitFor();
    },
  };
}
