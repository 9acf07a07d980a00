import { afterEach, describe, expect, it } from 'vitest';
import { Strata } from '../../src/strata.js';
import { startScriptedLlmServer, type ScriptedLlmServer } from '../support/scripted-llm-server.js';
import { readIndexes, removeDir, session, summaryModel, tempHome, writeL0 } from './helpers.js';

let home: string | undefined;
let server: ScriptedLlmServer | undefined;
let strata: Strata | undefined;
afterEach(async () => {
  await strata?.close();
  await server?.close();
  if (home) await removeDir(home);
  strata = server = home = undefined;
});

describe('Strata#createSummaryWorker (the worker `strata watch` and the OpenClaw service run)', () => {
  it('is undefined without an LLM', async () => {
    home = await tempHome();
    strata = await Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
    expect(strata.createSummaryWorker()).toBeUndefined();
  });

  it('summarises with the thresholds from config `summaries`', async () => {
    home = await tempHome();
    server = await startScriptedLlmServer({ script: summaryModel });
    strata = await Strata.open({
      home,
      overrides: {
        embedder: { provider: 'none' },
        llm: { provider: 'openai', baseURL: server.baseURL, model: 'scripted', maxRetries: 0 },
        summaries: { boundaryTokens: 500, chunkTokens: 500, mergeFanIn: 3 },
      },
    });
    // 70 messages x 50 tokens; 10 fall inside the boundary; 60 make 6 chunks of 10, merged 3 -> 1 twice.
    await writeL0(home, session({ key: 'long', count: 70 }));
    const worker = strata.createSummaryWorker();
    const report = await worker!.runOnce();
    await worker!.stop();
    expect(report).toMatchObject({ chunksSummarised: 6, merges: { 2: 2 }, failed: 0 });
    const index = (await readIndexes(home)).get('long');
    expect(index?.summaries.filter((s) => s.level === 2)).toHaveLength(2);
  });
});
