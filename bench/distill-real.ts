/**
 * Distillation cost on the real transcripts in ../shared/fixtures: each transcript's L0 records
 * (reader + cleaner, as capture writes them) are distilled with a scripted OpenAI-compatible model
 * on loopback whose reported usage is the real token count (cl100k, gpt-tokenizer) of the prompt
 * it received and the reply it sent, so the figures measure what Strata sends, not a model. The
 * model extracts nothing (the reply is the smallest valid one), so input tokens are the cost of
 * reading the conversation and output tokens are a floor. Also reports the largest chunk (prompt
 * user part) against the chunk budget. Budget: <= 60k input tokens per 1,000 real messages.
 */
import { createOpenAIChat } from '../src/backends/llm-openai/index.js';
import { runDistill } from '../src/core/distill/index.js';
import { createLlmClient } from '../src/core/llm/index.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedReply } from '../test/support/scripted-llm-server.js';
import { UNCAPPED, withRealTranscriptHome } from './lib/real-home.js';
import { availableTranscripts } from './lib/real-transcripts.js';
import { printTable } from './lib/table.js';

type Counter = (text: string) => number;

async function tokenCounter(): Promise<Counter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
  return (text: string) => countTokens(text);
}

function contentOf(request: RecordedRequest, role?: string): string {
  return ((request.body?.messages ?? []) as Array<{ role: string; content: string }>)
    .filter((m) => role === undefined || m.role === role)
    .map((m) => m.content)
    .join('\n');
}

export interface RealDistillRow {
  transcript: string;
  messages: number;
  calls: number;
  input: number;
  output: number;
  maxChunk: number;
}

export async function runRealDistillBench(options: { chunkTokens?: number } = {}): Promise<RealDistillRow[]> {
  const count = await tokenCounter();
  const chunkTokens = options.chunkTokens ?? 3000;
  let maxChunk = 0;
  const model = (request: RecordedRequest): ScriptedReply => {
    const name = (request.body?.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
    const text = name === 'memories' ? '{"memories":[]}' : '{"decisions":[]}';
    if (name === 'memories') maxChunk = Math.max(maxChunk, count(contentOf(request, 'user')));
    // Chat framing adds a few tokens per message on top of the text.
    const framing = 4 * ((request.body?.messages as unknown[] | undefined)?.length ?? 0);
    return { kind: 'text', text, usage: { inputTokens: count(contentOf(request)) + framing, outputTokens: count(text) } };
  };
  const server = await startScriptedLlmServer({ script: model });
  const budget = { maxCallsPerRun: 100_000, maxTokensPerRun: 1e9, maxCallsPerHour: 100_000, maxTokensPerHour: 1e9 };
  const rows: RealDistillRow[] = [];
  try {
    for (const t of availableTranscripts()) {
      await withRealTranscriptHome(t, async ({ home, ctx, records }) => {
        const llm = createLlmClient({ llm: createOpenAIChat({ baseURL: server.baseURL, model: 'bench', jsonMode: 'json_schema' }) });
        maxChunk = 0;
        const report = await runDistill({ ctx, home, llm, budget, caps: UNCAPPED, chunkTokens });
        rows.push({
          transcript: t.id,
          messages: records.length,
          calls: report.llmCalls,
          input: report.tokens.input,
          output: report.tokens.output,
          maxChunk,
        });
      });
    }
  } finally {
    await server.close();
  }
  const total = rows.reduce(
    (a, r) => ({
      ...a,
      messages: a.messages + r.messages,
      calls: a.calls + r.calls,
      input: a.input + r.input,
      output: a.output + r.output,
      maxChunk: Math.max(a.maxChunk, r.maxChunk),
    }),
    { transcript: 'all', messages: 0, calls: 0, input: 0, output: 0, maxChunk: 0 },
  );
  const per1k = (x: number, n: number) => (n > 0 ? Math.round((x * 1000) / n) : 0);
  printTable(
    `Distillation tokens on the real transcripts (cl100k count of what is sent; chunk budget ${chunkTokens}; target <= 60,000 input / 1k messages)`,
    ['transcript', 'messages', 'calls', 'in tok', 'out tok', 'in / 1k msgs', 'out / 1k msgs', 'largest chunk'],
    [...rows, total].map((r) => [
      r.transcript,
      r.messages,
      r.calls,
      r.input,
      r.output,
      per1k(r.input, r.messages),
      per1k(r.output, r.messages),
      r.maxChunk,
    ]),
  );
  return rows;
}
