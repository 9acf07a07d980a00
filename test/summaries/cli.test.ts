import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempHome, type CliResult } from '../support/run-cli.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { session, summaryModel, writeL0 } from './helpers.js';

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> => runCli(args, { env });

let home: string | undefined;
let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
  home = undefined;
  server = undefined;
});

describe('strata summarize', () => {
  it('runs one pass with the configured LLM, plans with --dry-run, and needs an LLM otherwise', async () => {
    // Default thresholds: 40 messages of 1000 tokens; 10 are 30,000 tokens behind the latest;
    // the first 6 close a 6,000-token chunk and the other 4 wait (the next one still fits).
    const records = session({ key: 'agent:main:main', count: 40 }).map((r, i) => ({ ...r, content: `message ${i} `.padEnd(4000, 'x') }));
    server = await startScriptedLlmServer({ script: summaryModel });
    home = await tempHome({ embedder: { provider: 'none' }, llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted' } });
    await writeL0(home, records);
    const env = { OPENAI_API_KEY: 'k' };

    const plan = await cli(['--home', home, '--json', 'summarize', '--dry-run'], env);
    expect(plan.stderr).toBe('');
    expect(JSON.parse(plan.stdout)).toMatchObject({ dryRun: true, chunksSummarised: 1, llmCalls: 0 });
    expect(server.requests).toHaveLength(0);

    const run = await cli(['--home', home, '--agent', 'main', 'summarize', '--session', 'agent:main:main'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('summarised 1 chunk(s) in 1 session(s)');
    expect(run.stdout).toContain('partial chunk waiting (4000 tokens)');
    expect(server.requests).toHaveLength(1);

    const again = await cli(['--home', home, '--json', 'summarize'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ chunksSummarised: 0, llmCalls: 0, skipped: { 'partial-chunk-waiting': 1 } });

    const noLlm = await tempHome();
    try {
      const refused = await cli(['--home', noLlm, 'summarize']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error [CONFIG_INVALID]: strata summarize needs an LLM');
    } finally {
      await rm(noLlm, { recursive: true, force: true });
    }
  }, 60_000);
});
