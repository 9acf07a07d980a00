/**
 * Planted-secret corpus: fresh secrets of every kind (secret-corpus.ts) go in through every write
 * path — library, CLI add, import (text, tags, source fields), HTTP, MCP, transcript ingest (content
 * and ids), live capture, distillation with a scripted LLM that echoes them back, the organiser's
 * scene and persona files, journal day log and pending, summary index, updates (history) — then
 * every file under the home (LanceDB data included) is scanned and the tables are read back.
 * Found must be 0. The figures per path are printed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendToDayLog } from '../../src/core/journal/day-log.js';
import { savePending } from '../../src/core/journal/pending.js';
import { journalPaths as journalPathsOf } from '../../src/core/journal/options.js';
import { organizeScenes } from '../../src/core/layers/index.js';
import { saveIndex } from '../../src/core/summaries/index-file.js';
import { createHttpHandler } from '../../src/hosts/http/api.js';
import { createMcpServer } from '../../src/hosts/mcp/server.js';
import { resolveCaller } from '../../src/core/caller.js';
import { Strata } from '../../src/strata.js';
import { runCli } from '../support/run-cli.js';
import { startScriptedLlmServer } from '../support/scripted-llm-server.js';
import { ctxOf, llmClient, tempDir } from '../distill/helpers.js';
import { runDistill } from '../../src/core/distill/run.js';
import { plantAll, type PlantedSecret } from './secret-corpus.js';

const planted = new Map<string, Array<{ kind: string; secret: string }>>();
const plant = (path: string, items: PlantedSecret[]) =>
  planted.set(path, [...(planted.get(path) ?? []), ...items.map(({ kind, secret }) => ({ kind, secret }))]);
let home = '';
afterAll(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Chunks of planted texts joined by newlines, each under the memory length limit. */
function chunks(items: PlantedSecret[], max = 6000): string[] {
  const out: string[] = [];
  let current = '';
  for (const p of items) {
    if (current && current.length + p.text.length + 1 > max) {
      out.push(current);
      current = '';
    }
    current += (current ? '\n' : '') + p.text;
  }
  if (current) out.push(current);
  return out;
}

describe('planted secrets', () => {
  it('no planted secret is found anywhere under the home, whatever path it came in by', async () => {
    home = await tempDir();
    const llmServer = await startScriptedLlmServer({
      script: (request) => {
        const body = JSON.stringify(request.body ?? {});
        const schema = (request.body?.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
        // The model echoes every secret it was shown: into memories, keywords, merge texts, reasons, scenes and persona.
        const shown = plantedIn(body);
        if (schema === 'memories') {
          return {
            kind: 'text',
            text: JSON.stringify({
              memories: shown.slice(0, 20).map((s) => ({
                text: `The user said ${s.text}`.slice(0, 480),
                category: 'fact',
                importance: 0.8,
                confidence: 0.9,
                scope: 'agent',
                temporal: 'static',
                validFrom: null,
                sourceMessageIds: [s.secret],
                keywords: [s.secret],
              })),
            }),
          };
        }
        if (schema === 'decisions') return { kind: 'text', text: JSON.stringify({ decisions: [] }) };
        if (Array.isArray(request.body?.tools) && !body.includes('"role":"tool"')) {
          return {
            kind: 'tool-calls',
            calls: [
              {
                name: 'write_scene',
                arguments: {
                  file: 'secrets.md',
                  summary: corpusFor('organiser')[0]!.text.slice(0, 100),
                  content: corpusFor('organiser')
                    .map((p) => p.text)
                    .join('\n'),
                },
              },
            ],
          };
        }
        if (Array.isArray(request.body?.tools)) return { kind: 'text', text: 'done' };
        return {
          kind: 'text',
          text: `Persona: ${corpusFor('persona')
            .map((p) => p.text)
            .join('\n')}`,
        };
      },
    });
    const corpora = new Map<string, PlantedSecret[]>();
    const corpusFor = (path: string) => {
      if (!corpora.has(path)) {
        corpora.set(path, plantAll());
        plant(path, corpora.get(path)!);
      }
      return corpora.get(path)!;
    };
    const everything: PlantedSecret[] = [];
    const plantedIn = (text: string) =>
      everything.filter((p) => text.includes(JSON.stringify(p.secret).slice(1, -1)) || text.includes(p.secret));

    await writeFile(join(home, 'config.json'), JSON.stringify({ embedder: { provider: 'none' } }));
    const strata = await Strata.open({ home });
    try {
      // Library: text, tags and source fields.
      for (const p of corpusFor('library'))
        await strata.remember({
          text: p.text,
          tags: [p.text],
          scope: 'agent:main',
          source: { kind: 'manual', sessionKey: p.text, messageIds: [p.text] },
        });
      // Updates go to history with the previous text.
      const updatable = corpusFor('update');
      const first = await strata.remember({ text: 'A memory to update', scope: 'agent:main' });
      await strata.update({
        id: first.id,
        text: updatable
          .map((p) => p.text)
          .join('\n')
          .slice(0, 7000),
        tags: updatable.map((p) => p.text),
        reason: updatable[0]!.text,
      });
      // Import: every field a JSONL line may carry.
      const lines = corpusFor('import').map((p) =>
        JSON.stringify({
          text: p.text,
          scope: 'agent:main',
          tags: [p.text],
          source: { kind: 'import', sessionKey: p.text, messageIds: [p.text] },
        }),
      );
      await strata.import({ input: Readable.from([lines.join('\n') + '\n']) });
      // HTTP, in process.
      const handler = createHttpHandler({ strata, inspector: false });
      for (const p of corpusFor('http')) {
        const res = await handler(
          new Request('http://127.0.0.1/api/v1/memories', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text: p.text, tags: p.text.length <= 64 ? [p.text] : [] }),
          }),
        );
        expect(res.status, await res.clone().text()).toBeLessThan(300);
      }
      // MCP, in process.
      const mcp = createMcpServer({ ops: strata.as(resolveCaller({ config: strata.config, agentId: 'main' }), { actor: 'mcp' }) });
      const [a, b] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'planted', version: '0' });
      await Promise.all([mcp.connect(a), client.connect(b)]);
      for (const p of corpusFor('mcp')) {
        const result = await client.callTool({
          name: 'memory_store',
          arguments: { text: p.text, tags: p.text.length <= 64 ? [p.text] : [] },
        });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      }
      await client.close();
      // Transcript capture: content, message ids and session ids carry secrets.
      const jsonlRoot = join(home, 'transcripts');
      await mkdir(jsonlRoot, { recursive: true });
      const transcript = corpusFor('ingest').map((p, i) =>
        JSON.stringify({
          id: p.text,
          session: p.text,
          role: 'user',
          content: p.text,
          timestamp: Date.parse('2026-01-05T10:00:00Z') + i * 1000,
        }),
      );
      await writeFile(join(jsonlRoot, 'session.jsonl'), transcript.join('\n') + '\n');
      // Through the engine's capture pipeline: the L0 log and the conversation index.
      await strata.ingest({ sources: [{ kind: 'jsonl', root: jsonlRoot }], agentId: 'main' });
      // Live capture.
      const liveCorpus = corpusFor('live');
      await strata.capture({
        agentId: 'main',
        sessionKey: liveCorpus[0]!.text,
        messages: liveCorpus.map((p, i) => ({
          role: 'user',
          content: p.text,
          id: p.text,
          timestamp: Date.parse('2026-01-06T10:00:00Z') + i * 1000,
        })),
      });
      await strata.embedConversations();
      everything.push(...corpusFor('ingest'), ...liveCorpus);
      // Distillation: the scripted model echoes the secrets it sees back as memories and keywords.
      plant('distill', [...corpusFor('ingest'), ...liveCorpus]);
      const llm = llmClient(llmServer.baseURL, { home });
      const ctx = ctxOf(strata);
      const report = await runDistill({ ctx, home, llm });
      expect(report.admitted + report.rejected.total).toBeGreaterThanOrEqual(0);
      // Organiser: the model writes every secret into a scene and the persona.
      corpusFor('organiser');
      corpusFor('persona');
      await organizeScenes({ home, agentId: 'main', llm, memories: strata });
      // Journal and summaries.
      const journal = corpusFor('journal');
      const journalPaths = journalPathsOf(home);
      await appendToDayLog({ paths: journalPaths, at: new Date(), text: journal.map((p) => p.text).join('\n') });
      const pending = corpusFor('journal-pending');
      await savePending(journalPaths, {
        version: 1,
        sessionId: 's1',
        agentId: 'main',
        flushedAt: new Date().toISOString(),
        source: 'l0',
        messages: 1,
        prompt: pending.map((p) => p.text).join('\n'),
        failures: 0,
        lastError: pending[0]!.text,
      } as Parameters<typeof savePending>[1]);
      const summary = corpusFor('summary-index');
      await mkdir(join(home, 'summaries'), { recursive: true });
      await saveIndex({
        path: join(home, 'summaries', 'index.json'),
        index: {
          version: 1,
          agentId: 'main',
          sessionKey: summary[0]!.text,
          summaries: summary.map((p, i) => ({ id: `s${i}`, text: p.text })) as never,
          updatedAt: null,
        },
      });
      // CLI add (a child process on the same home; text as one argument, tags repeated).
      await strata.close();
      const cli = corpusFor('cli');
      for (const text of chunks(cli)) {
        const result = await runCli(
          [
            'add',
            text,
            '--scope',
            'agent:main',
            ...cli
              .slice(0, 5)
              .filter((p) => p.text.length <= 64)
              .flatMap((p) => ['--tag', p.text]),
          ],
          { env: { STRATA_HOME: home } },
        );
        expect(result.code, result.stderr).toBe(0);
      }
    } finally {
      await strata.close().catch(() => undefined);
      await llmServer.close();
    }

    // Scan: every byte of every file, then the tables read back through the engine.
    const all = [...planted.values()].flat();
    const hits: Array<{ secret: string; where: string }> = [];
    for await (const file of files(home)) {
      if (file.startsWith(join(home, 'transcripts'))) continue; // the input itself
      const bytes = await readFile(file);
      const texts = [bytes.toString('utf8'), bytes.toString('latin1')];
      for (const p of all) {
        const escaped = JSON.stringify(p.secret).slice(1, -1);
        if (texts.some((t) => t.includes(p.secret) || t.includes(escaped)))
          hits.push({ secret: p.secret, where: `${p.kind} in ${file.slice(home.length)}` });
      }
    }
    const reopened = await Strata.open({ home });
    try {
      let exported = '';
      for await (const line of reopened.export()) exported += line;
      for (const p of all)
        if (exported.includes(p.secret)) hits.push({ secret: p.secret, where: `${p.kind} in the memory table (export)` });
      const conversations = await reopened.searchConversations({ query: 'password key token', limit: reopened.config.recall.maxLimit });
      const text = JSON.stringify(conversations);
      for (const p of all) if (text.includes(p.secret)) hits.push({ secret: p.secret, where: `${p.kind} in the conversation index` });
      expect(conversations.length).toBeGreaterThan(0);
    } finally {
      await reopened.close();
    }
    const found = new Set(hits.map((h) => h.secret));
    console.log('| write path | planted | found |\n|---|---|---|');
    for (const [path, items] of planted) console.log(`| ${path} | ${items.length} | ${items.filter((i) => found.has(i.secret)).length} |`);
    console.log(`| total | ${all.length} | ${all.filter((i) => found.has(i.secret)).length} |`);
    for (const h of [...new Set(hits.map((x) => x.where))].slice(0, 40)) console.log(`  found: ${h}`);
    expect(hits.map((h) => h.where)).toEqual([]);
  }, 240_000);
});
