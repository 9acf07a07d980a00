/**
 * Static files of the web inspector: `<package root>/inspector/*` and the two browser libraries it
 * imports (preact, htm) straight from node_modules, so there is no build step and nothing is
 * fetched from the internet. Served without a token (they hold no data); every API call needs one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { StorageError } from '../../errors/index.js';

const PACKAGE_NAME = 'strata-memory';
const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.(js|css|svg)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};
/**
 * Files the import map in inspector/index.html names -> how to find them. htm's `require` entry
 * is its CommonJS build; its ES module build sits next to it.
 */
const VENDOR: Record<string, { specifier: string; sibling?: string }> = {
  'preact.mjs': { specifier: 'preact' },
  'preact-hooks.mjs': { specifier: 'preact/hooks' },
  'htm.mjs': { specifier: 'htm', sibling: 'htm.mjs' },
};

/**
 * The folder holding our package.json: the same answer from src/hosts/http (tsx, tests) and from
 * dist/hosts/http (the published package), and from node_modules/strata-memory when installed.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
      } catch {
        // an unreadable manifest is not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new StorageError({
        message: `Cannot find the ${PACKAGE_NAME} package root above ${from}: the inspector assets ship in <package>/inspector.`,
      });
    dir = parent;
  }
}

export interface InspectorAssets {
  dir: string;
  /** index.html with its Content-Security-Policy (the inline import map is allowed by hash). */
  index(): Promise<{ html: string; csp: string }>;
  file(name: string): Promise<{ body: Buffer; type: string } | null>;
  vendor(name: string): Promise<{ body: Buffer; type: string } | null>;
}

export function inspectorAssets(options: { root?: string } = {}): InspectorAssets {
  const root = options.root ?? packageRoot();
  const dir = join(root, 'inspector');
  const require = createRequire(join(root, 'package.json'));
  let index: Promise<{ html: string; csp: string }> | undefined;
  return {
    dir,
    index() {
      index ??= readFile(join(dir, 'index.html'), 'utf8').then((html) => ({ html, csp: contentSecurityPolicy(html) }));
      const current = index;
      current.catch(() => (index = index === current ? undefined : index));
      return current;
    },
    async file(name) {
      const match = FILE_NAME.exec(name);
      if (!match) return null;
      const body = await readFile(join(dir, name)).catch(() => null);
      return body ? { body, type: TYPES[match[1]!]! } : null;
    },
    async vendor(name) {
      const entry = VENDOR[name];
      if (!entry) return null;
      const resolved = require.resolve(entry.specifier);
      return { body: await readFile(entry.sibling ? join(dirname(resolved), entry.sibling) : resolved), type: TYPES.js! };
    },
  };
}

/** Scripts only from this origin plus the one inline import map; no inline handlers can ever run. */
function contentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script type="importmap">([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' };

/** `GET /` (the page), `/inspector/<file>` and `/vendor/<lib>`, outside the token-protected `/api`. */
export function registerInspectorAssets(app: Hono, assets: InspectorAssets = inspectorAssets()): void {
  app.get('/', async (c) => {
    const page = await assets.index().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      return null;
    });
    if (!page)
      return c.text(
        `The web inspector's files are missing from ${assets.dir} (the package must ship its inspector/ folder). The API is under /api/v1.`,
        500,
      );
    const { html, csp } = page;
    return c.html(html, 200, { ...SECURITY_HEADERS, 'content-security-policy': csp, 'x-frame-options': 'DENY' });
  });
  app.get('/inspector/:file', async (c) => {
    const found = await assets.file(c.req.param('file'));
    if (!found) return c.notFound();
    return c.body(new Uint8Array(found.body), 200, { ...SECURITY_HEADERS, 'content-type': found.type });
  });
  app.get('/vendor/:file', async (c) => {
    const found = await assets.vendor(c.req.param('file'));
    if (!found) return c.notFound();
    return c.body(new Uint8Array(found.body), 200, { ...SECURITY_HEADERS, 'content-type': found.type });
  });
}
