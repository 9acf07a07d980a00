/**
 * Issue 16 items 2-3: what a newcomer meets on the CLI's error paths and defaults. Every case runs
 * the real CLI as a child process against a temp home with a real LanceDB store.
 */
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli, tempHome, type CliResult } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-http-server.js';
import { openAIEmbeddingsScript } from '../support/embedding-scripts.js';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts');

/** One line on stderr, no stack trace. */
function expectOneLineError(r: CliResult, code: string): void {
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^error \\[${code}\\]: `));
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

async function addMemory(home: string, text: string, extra: string[] = []): Promise<string> {
  const r = await runCli(['--home', home, 'add', text, '--json', ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }).id;
}

describe('CLI error paths (issue 16, item 3)', () => {
  let home: string;
  beforeAll(async () => {
    home = await tempHome();
  });

  it('under --json an error is a JSON object on stdout, one line on stderr, exit 1', async () => {
    const r = await runCli(['--home', home, '--json', 'get', '01ABCDEFGHJKMNPQRSTVWXYZ00']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('01ABCDEFGHJKMNPQRSTVWXYZ00') } });
    expectOneLineError(r, 'NOT_FOUND');
  });

  it('a usage error under --json is a JSON object too (exit 2)', async () => {
    const r = await runCli(['--home', home, '--json', 'list', '--limit', 'zero']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('INVALID_ARGUMENT');
  });

  it('forget and history of an unknown id exit non-zero and keep the id as typed', async () => {
    const forget = await runCli(['--home', home, 'forget', '01abcdefghjkmnpqrstvwxyz00']);
    expect(forget.code).toBe(1);
    expectOneLineError(forget, 'NOT_FOUND');
    const history = await runCli(['--home', home, 'history', '01abcdefghjkmnpqrstvwxyz00']);
    expect(history.code).toBe(1);
    expect(history.stderr).toContain('01abcdefghjkmnpqrstvwxyz00');
    expect(history.stderr).not.toContain('01ABCDEFGHJKMNPQRSTVWXYZ00');
  });

  it('export -o into a missing folder is a one-line error and leaves no file', async () => {
    const r = await runCli(['--home', home, 'export', '-o', '/nonexistent-strata-dir/x.jsonl']);
    expect(r.code).toBe(2);
    expectOneLineError(r, 'INVALID_ARGUMENT');
    expect(r.stderr).toContain('/nonexistent-strata-dir does not exist');
  });

  it('revert of a memory with no earlier version refuses without --yes (no TTY) and deletes with it', async () => {
    const id = await addMemory(home, 'The staging database lives on port 5433', ['--scope', 'global']);
    const refused = await runCli(['--home', home, 'revert', id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no earlier version.*--yes/);
    expect((await runCli(['--home', home, 'get', id])).code).toBe(0); // still there
    const done = await runCli(['--home', home, 'revert', id, '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect((await runCli(['--home', home, 'get', id])).code).toBe(1);
  });

  it('an update is reverted without asking (it has an earlier version)', async () => {
    const id = await addMemory(home, 'The build uses Node 22');
    expect((await runCli(['--home', home, 'update', id, '--text', 'The build uses Node 24'])).code).toBe(0);
    const r = await runCli(['--home', home, '--json', 'revert', id]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse((await runCli(['--home', home, '--json', 'get', id])).stdout).text).toBe('The build uses Node 22');
  });

  it('`strata demo | head -1` ends cleanly (no EPIPE crash)', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), 'demo'], {
        cwd: REPO_ROOT,
        env: { ...process.env, LANCEDB_LOG: 'error' },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Like `head -1`: read the first chunk, then close the pipe while the demo still writes.
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.code).toBe(0);
  }, 60_000);

  it('an empty store reports 0 fragments, not "?"', async () => {
    const empty = await tempHome();
    const r = await runCli(['--home', empty, 'doctor']);
    expect(r.stdout).toMatch(/store\s+lancedb: 0 rows, 0 fragments/);
  });

  it('recall --explain without --json reads as text and does not mention a reranker nobody asked for', async () => {
    await addMemory(home, 'Prefers dark mode in every editor', ['--scope', 'global']);
    const r = await runCli(['--home', home, 'recall', 'dark mode editor', '--explain']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('returned:');
    expect(r.stdout).toMatch(/words rank 1/);
    expect(r.stdout).not.toMatch(/^\s*[{}]/m);
    expect(r.stdout).not.toMatch(/rerank/i);
  });

  it('distill --dry-run with nothing captured says why nothing was found', async () => {
    const r = await runCli(['--home', home, 'distill', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no new messages.*strata ingest/);
  });

  it('sessions --json prints ISO 8601 times, never epoch milliseconds', async () => {
    const h = await tempHome();
    await cp(join(FIXTURES, 'codex'), join(h, 'src'), { recursive: true });
    expect((await runCli(['--home', h, 'ingest', '--source', 'codex', '--path', join(h, 'src'), '--no-embed'])).code).toBe(0);
    const r = await runCli(['--home', h, 'sessions', '--json']);
    const sessions = JSON.parse(r.stdout).sessions as Array<Record<string, unknown>>;
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      for (const [key, value] of Object.entries(s)) {
        if (/timestamp/i.test(key)) expect(value, key).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
    }
  });
});

describe('default scopes print which (issue 16, item 2)', () => {
  it('list and recall without flags say whose scopes they read and what sits in other scopes', async () => {
    const home = await tempHome();
    await addMemory(home, 'Integration tests need docker compose up db', ['--agent', 'coder']);
    const list = await runCli(['--home', home, 'list']);
    expect(list.stdout).toContain('no memories');
    expect(list.stderr).toMatch(/reading as \(no agent\) \[global\].*1 more in other scopes: agent:coder \(1\).*--agent coder/);
    const recall = await runCli(['--home', home, 'recall', 'docker']);
    expect(recall.stderr).toMatch(/agent:coder \(1\)/);
  });

  it("with scopes.defaultAgent set, list reads that agent's scopes and says so", async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, scopes: { defaultAgent: 'coder' } });
    await addMemory(home, 'Integration tests need docker compose up db');
    const list = await runCli(['--home', home, 'list']);
    expect(list.stdout).toContain('docker compose');
    expect(list.stderr).toContain('reading as coder [global, agent:coder]');
    // An explicit flag is the user's own choice: no hint.
    const flagged = await runCli(['--home', home, '--agent', 'coder', 'list']);
    expect(flagged.stderr).toBe('');
  });
});

describe('doctor and providers (issue 16, item 3)', () => {
  let llm: ScriptedLlmServer;
  let embeddings: ScriptedServer;
  beforeAll(async () => {
    llm = await startScriptedLlmServer({ script: () => ({ kind: 'text', text: 'OK' }) });
    embeddings = await startScriptedServer({ routes: { 'POST /v1/embeddings': openAIEmbeddingsScript({ dimensions: 16 }) } });
  });
  afterAll(async () => {
    await llm.close();
    await embeddings.close();
  });

  it('doctor checks a configured LLM with one small call', async () => {
    const home = await tempHome({ embedder: { provider: 'none' }, llm: { provider: 'openai', baseURL: llm.baseURL, model: 'scripted' } });
    const r = await runCli(['--home', home, 'doctor']);
    expect(r.stdout).toMatch(/ok\s+llm\s+\S+:scripted answered in \d+ ms/);
    expect(llm.requests.length).toBeGreaterThan(0);
  });

  it('doctor fails (exit 1) when the configured LLM cannot be reached', async () => {
    const home = await tempHome({
      embedder: { provider: 'none' },
      llm: { provider: 'openai', baseURL: 'http://127.0.0.1:9/v1', model: 'nope' },
    });
    const r = await runCli(['--home', home, 'doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+llm/);
  });

  it('the README\'s Ollama config (a local base URL, no key set) works without "API key is missing"', async () => {
    const home = await tempHome({
      embedder: {
        provider: 'openai',
        baseURL: `${embeddings.url}/v1`,
        model: 'nomic-embed-text',
        dimensions: 16,
        apiKeyEnv: 'OLLAMA_API_KEY',
      },
      llm: { provider: 'openai', baseURL: llm.baseURL, model: 'qwen2.5:7b', apiKeyEnv: 'OLLAMA_API_KEY' },
    });
    const env = { OLLAMA_API_KEY: '' };
    const add = await runCli(['--home', home, 'add', 'Prefers metric units'], { env });
    expect(add.code, add.stderr).toBe(0);
    const doctor = await runCli(['--home', home, 'doctor'], { env });
    expect(doctor.stdout).not.toContain('API key is missing');
    expect(doctor.stdout).toMatch(/ok\s+llm/);
    expect(doctor.stdout).toMatch(/ok\s+embedder/);
  });
});
