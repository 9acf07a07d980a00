import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { Strata } from '../../src/strata.js';
import { entryReply } from '../journal/helpers.js';
import { startScriptedLlmServer } from '../support/scripted-llm-server.js';
import { testPostgres } from '../support/postgres.js';
import { runCli, tempHome } from '../support/run-cli.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

/**
 * `store.provider: "postgres"` alone puts the journal in the database (config `state` follows the
 * store): an entry flushed on one machine is in the day log another machine reads, and nothing is
 * written under the flushing machine's home.
 */
describe.skipIf(!pg)('the journal follows a Postgres store', () => {
  it('one machine flushes, another reads the same day log', async () => {
    const schema = pg!.schemaName('jw');
    const dir = await mkdtemp(join(tmpdir(), 'strata-journal-wiring-'));
    const server = await startScriptedLlmServer({ script: [entryReply({ context: 'Shared journal works' })] });
    const open = (name: string) =>
      Strata.open({
        home: join(dir, name),
        env: { STRATA_POSTGRES_URL: pg!.url },
        overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
        llm: createOpenAIChat({ baseURL: server.baseURL, model: 'scripted', jsonMode: 'json_schema' }),
      });
    const [one, two] = [await open('a'), await open('b')];
    try {
      expect(one.journalStore.provider).toBe('postgres');
      const at = Date.parse('2026-11-21T09:00:00Z');
      await one.appendConversation({
        records: [
          {
            sessionKey: 'agent:main:s1',
            sessionId: 's1',
            agentId: 'main',
            host: 'openclaw',
            id: 'm1',
            role: 'user',
            content: 'We keep the journal in Postgres now.',
            timestamp: at,
            recordedAt: new Date(at).toISOString(),
          },
        ],
      });
      const result = await one.flushJournal({ sessionId: 's1', now: () => new Date('2026-11-21T10:00:00Z') });
      expect(result).toMatchObject({ status: 'written', path: `postgres:${schema}.journal_days/2026-11-21` });
      expect(await two.journalStore.readDay('2026-11-21')).toContain('**Context:** Shared journal works');
      await expect(stat(join(dir, 'a', 'journal'))).rejects.toThrow(/ENOENT/);

      // A person on a third machine reads it with the CLI.
      const home = await tempHome({ embedder: { provider: 'none' }, store: { provider: 'postgres', postgres: { schema } } });
      try {
        const cli = (args: string[]) => runCli(['--home', home, 'journal', 'show', ...args], { env: { STRATA_POSTGRES_URL: pg!.url } });
        const listed = await cli([]);
        expect(listed).toMatchObject({ code: 0, stdout: 'days: 2026-11-21\narticles: (none)\n' });
        const shown = await cli(['2026-11-21']);
        expect(shown.code).toBe(0);
        expect(shown.stdout).toContain('## 10:00 UTC · session s1\n\n**Context:** Shared journal works');
        const missing = await cli(['2026-11-22']);
        expect(missing.code).toBe(1);
        expect(missing.stderr).toMatch(/no day 2026-11-22/);
        expect((await cli(['../../etc'])).stderr).toMatch(/YYYY-MM-DD/);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
      await server.close();
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }, 120_000);
});
