/**
 * Capture in remote mode with the real CLI: `strata ingest` reads the real Claude Code transcripts
 * on this machine (cursors in this machine's home), ships the cleaned messages to a real
 * `strata serve`, where they become searchable for the token's agent; a batch sent again (cursors
 * reset) adds nothing on the service.
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempHome } from '../support/run-cli.js';
import { remoteService, type RemoteService } from './serve-process.js';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts');
let service: RemoteService;
let clientHome: string;

beforeAll(async () => {
  service = await remoteService(['coder']);
  clientHome = await tempHome();
}, 60_000);

afterAll(async () => {
  await service?.close();
  await rm(clientHome, { recursive: true, force: true });
});

async function serviceLogLines(): Promise<number> {
  const dir = join(service.home, 'conversations');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.jsonl'));
  let n = 0;
  for (const f of files) n += (await readFile(join(dir, f), 'utf8')).split('\n').filter(Boolean).length;
  return n;
}

describe('strata ingest with STRATA_URL', () => {
  it('reads transcripts here, stores them on the service once, searchable for the token’s agent only', async () => {
    const src = join(clientHome, 'src');
    await cp(join(FIXTURES, 'claude-code'), join(src, 'claude-code'), { recursive: true });
    const remote = { STRATA_URL: service.server.url, STRATA_TOKEN: service.tokens.coder! };
    const ingest = () =>
      runCli(['--home', clientHome, 'ingest', '--source', 'claude-code', '--path', join(src, 'claude-code'), '--json'], { env: remote });

    const first = await ingest();
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { messages: { new: number }; errors: unknown[] };
    expect(summary.errors).toEqual([]);
    expect(summary.messages.new).toBeGreaterThan(10);
    const stored = await serviceLogLines();
    expect(stored).toBe(summary.messages.new);

    // Cursors stay on this machine; the log and the index do not.
    expect(await readdir(clientHome)).toContain('capture');
    expect(await readdir(clientHome)).not.toContain('conversations');

    // Searchable through the service for the token's agent...
    const search = await runCli(['--home', clientHome, 'conversations', 'search', 'transcript fixtures', '--json'], { env: remote });
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);

    // ...and a resend (cursors forgotten, every batch shipped again) adds nothing there.
    const reset = await runCli(['--home', clientHome, 'cursor', 'reset']);
    expect(reset.code, reset.stderr).toBe(0);
    const again = await ingest();
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { messages: { new: number } }).messages.new).toBe(0);
    expect(await serviceLogLines()).toBe(stored);
  }, 180_000);

  it('refuses records of another agent', async () => {
    const res = await fetch(`${service.server.url}/api/v1/ops/capture`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.tokens.coder}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        records: [
          { sessionKey: 's', sessionId: 's', agentId: 'other', host: 'claude-code', id: 'x1', role: 'user', content: 'hi', timestamp: 1 },
        ],
      }),
    });
    expect(res.status).toBe(403);
  });
});
