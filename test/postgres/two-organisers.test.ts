import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresLayerStore } from '../../src/backends/layers-postgres/index.js';
import { buildContext } from '../../src/core/layers/context.js';
import { parseScene } from '../../src/core/layers/scene-file.js';
import { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedReply } from '../support/scripted-llm-server.js';
import { testPostgres } from '../support/postgres.js';
import { runTsChild } from '../support/run-child.js';

const pg = await testPostgres();
afterAll(async () => pg?.close());

interface ChildResult {
  provider: string;
  conflicts: number;
  processed: number;
  version: number;
}

const runChild = (args: string[]) =>
  runTsChild<ChildResult>({ script: join(import.meta.dirname, 'organise-child.ts'), args, label: 'organiser' });

/**
 * A scripted organiser model: reads journal.md, then writes it back with one line added, naming
 * the machine and the facts of the memories in its prompt; the persona call gets a short body.
 */
function journalModel(machine: string) {
  return (request: RecordedRequest): ScriptedReply => {
    const body = request.body ?? {};
    if (!Array.isArray(body.tools)) return { kind: 'text', text: `Persona written by ${machine}.` };
    const messages = body.messages as Array<{ role: string; content: string | null }>;
    const tools = messages.filter((m) => m.role === 'tool');
    if (tools.length === 0) return { kind: 'tool-calls', calls: [{ name: 'read_scene', arguments: { file: 'journal.md' } }] };
    if (tools.length === 1) {
      const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
      const facts = [...new Set(prompt.match(/FACT-\d+/g) ?? [])].sort();
      const read = tools[0]!.content ?? '';
      const before = read.startsWith('refused:') ? '' : parseScene(read).body;
      const content = `${before}${machine}: ${facts.join(' ')}\n`;
      return {
        kind: 'tool-calls',
        calls: [{ name: 'write_scene', arguments: { file: 'journal.md', summary: 'What each run organised', content } }],
      };
    }
    return { kind: 'text', text: 'done' };
  };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Two machines (own homes, own processes) organise agent main on one database at once. A starts
 * with FACT-01..03; while its model works, FACT-04..06 are stored and B starts, and B's model
 * answers only after A has committed. B's commit then finds the version moved: B redoes its run
 * on A's version, organises only FACT-04..06 (A's checkpoint came with it) and appends to A's
 * journal. Without the version check B's first attempt would overwrite A's journal and checkpoint.
 */
describe.skipIf(!pg)('two organisers in two processes on one PostgreSQL database', () => {
  it("keep both machines' work: the later commit conflicts and is redone on the newer version", async () => {
    const schema = pg!.schemaName('org');
    const dir = await mkdtemp(join(tmpdir(), 'strata-two-organise-'));
    const writer = await Strata.open({
      home: join(dir, 'writer'),
      env: { STRATA_POSTGRES_URL: pg!.url },
      overrides: { store: { provider: 'postgres', postgres: { schema } }, embedder: { provider: 'none' }, llm: { provider: 'none' } },
    });
    const reader = createPostgresLayerStore({ url: `${pg!.url}&application_name=strata_org_reader`, schema, poolSize: 1 });
    const remember = (n: number, text: string) => writer.remember({ text: `FACT-0${n}: ${text}`, scope: 'agent:main' });
    let startB!: () => void;
    const bMayStart = new Promise<void>((r) => (startB = r));
    let bAsked!: () => void;
    const bHasAsked = new Promise<void>((r) => (bAsked = r));
    const modelA = journalModel('A');
    const modelB = journalModel('B');
    const serverA = await startScriptedLlmServer({
      script: async (request, index) => {
        if (index === 0) {
          await remember(4, 'the user deploys on Fridays never');
          await remember(5, 'the staging cluster is called heron');
          await remember(6, 'backups run at 02:00 UTC');
          startB();
          await bHasAsked;
        }
        return modelA(request);
      },
    });
    const serverB = await startScriptedLlmServer({
      script: async (request, index) => {
        if (index === 0) {
          bAsked();
          await waitFor(async () => (await reader.read({ agentId: 'main', names: [] })).version >= 1, 60_000);
        }
        return modelB(request);
      },
    });
    try {
      await remember(1, 'the user runs a home lab with three servers');
      await remember(2, 'the user prefers Postgres to MySQL');
      await remember(3, 'the user writes TypeScript at work');
      const args = (home: string, server: { baseURL: string }) => [join(dir, home), pg!.url, schema, server.baseURL];
      const a = runChild(args('a', serverA));
      await bMayStart;
      const b = runChild(args('b', serverB));
      const [ra, rb] = await Promise.all([a, b]);

      const { version, files } = await reader.read({ agentId: 'main' });
      expect(version).toBe(2);
      // A's line survives B's run, and every memory is organised exactly once between them.
      expect(parseScene(files['scenes/journal.md']!).body).toBe('A: FACT-01 FACT-02 FACT-03\nB: FACT-04 FACT-05 FACT-06\n');
      expect(JSON.parse(files['checkpoint.json']!)).toMatchObject({ totalProcessed: 6 });
      expect(JSON.parse(files['scenes/.index.json']!).scenes.map((s: { filename: string }) => s.filename)).toEqual(['journal.md']);
      expect(ra).toEqual({ provider: 'postgres', conflicts: 0, processed: 3, version: 1 });
      expect(rb).toEqual({ provider: 'postgres', conflicts: 1, processed: 3, version: 2 });
      expect(files['persona.md']).toMatch(/^Persona written by A\./);
      // Readers on a third machine (no scene files in its home) see the shared result through the store.
      const context = await buildContext({ strata: writer, agentId: 'main' });
      expect(context).toMatchObject({ persona: true, scenes: 1 });
      expect(context.text).toContain('Persona written by A.');
      expect(context.text).toContain('journal.md');
      // B asked its model twice for the scenes (first attempt, then the redo on A's version).
      expect(serverB.requests.filter((r) => Array.isArray(r.body?.tools) && (r.body!.messages as unknown[]).length === 2)).toHaveLength(2);
    } finally {
      await writer.close();
      await reader.close();
      await serverA.close();
      await serverB.close();
      await rm(dir, { recursive: true, force: true });
      await pg!.dropSchema(schema);
    }
  }, 180_000);
});
