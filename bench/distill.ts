/**
 * Distillation cost benchmark: LLM calls and tokens spent per 1,000 captured messages, against
 * the scripted LLM server (a deterministic stand-in "model" whose token usage is estimated from
 * the actual prompt and reply text, so the figures track prompt size and batching, not a model's
 * verbosity). Also runs the no-LLM rule path for comparison, and a rerun to show distilled
 * messages are never paid for twice. Run: `npx tsx bench/distill.ts [--messages 1000]`.
 */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createOpenAIChat } from '../src/backends/llm-openai/index.js';
import { runDistill, type DistillReport } from '../src/core/distill/index.js';
import type { EngineContext } from '../src/core/engine/context.js';
import { createLlmClient } from '../src/core/llm/index.js';
import { estimateTokens } from '../src/core/recall/tokens.js';
import type { L0Record } from '../src/spec/conversation.js';
import { Strata } from '../src/strata.js';
import { startScriptedLlmServer, type RecordedRequest, type ScriptedReply } from '../test/support/scripted-llm-server.js';
import { parseExtractionPrompt } from '../test/distill/helpers.js';
import { printTable } from './lib/table.js';

const FACTS = [
  'I prefer TypeScript over JavaScript for new services.',
  'We decided to deploy the billing service on Fridays only after review.',
  'Remember that my manager is called Dana.',
  '我喜欢用 Vim 写代码。',
  'I always run the tests before pushing.',
  'My favourite database is PostgreSQL.',
];
const CHATTER = [
  'Can you look at the failing test in src/app.ts?',
  'Thanks, that worked.',
  'What does this stack trace mean? TypeError: cannot read properties of undefined',
  '好的，继续。',
  'Please refactor this function to use async/await.',
  'ok',
];
const ASSISTANT = 'Sure. I looked at the code and changed the loop so it awaits each call; the tests pass now. Anything else?';

/** `n` messages in sessions of 10 (5 user turns, 5 replies); about 1 user turn in 4 states a fact. */
export function syntheticConversation(n: number): L0Record[] {
  const out: L0Record[] = [];
  const base = Date.parse('2026-11-01T09:00:00Z');
  for (let i = 0; i < n; i++) {
    const session = Math.floor(i / 10);
    const user = i % 2 === 0;
    const turn = Math.floor(i / 2);
    const content = !user
      ? ASSISTANT
      : turn % 4 === 0
        ? `${FACTS[(turn / 4) % FACTS.length]} (project ${session % 7})`
        : CHATTER[turn % CHATTER.length]!;
    const at = new Date(base + i * 60_000).toISOString();
    out.push({
      sessionKey: `agent:main:s${session}`,
      sessionId: `s${session}`,
      agentId: 'main',
      host: 'live',
      id: `m${i}`,
      role: user ? 'user' : 'assistant',
      content,
      timestamp: Date.parse(at),
      recordedAt: at,
    });
  }
  return out;
}

function userText(request: RecordedRequest): string {
  return ((request.body?.messages ?? []) as Array<{ role: string; content: string }>)
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** Deterministic stand-in model; usage is estimated from the real prompt and reply. */
function model(request: RecordedRequest): ScriptedReply {
  const prompt = ((request.body?.messages ?? []) as Array<{ content: string }>).map((m) => m.content).join('\n');
  const name = (request.body?.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
  let text: string;
  if (name === 'memories') {
    const messages = parseExtractionPrompt(userText(request));
    const memories = messages
      .filter((m) => m.role === 'user' && FACTS.some((f) => m.content.startsWith(f)))
      .map((m) => ({
        text: `The user says: ${m.content}`,
        category: 'preference',
        importance: 0.7,
        confidence: 0.9,
        scope: 'global',
        temporal: 'static',
        validFrom: null,
        sourceMessageIds: [m.id],
        keywords: ['project'],
      }));
    text = JSON.stringify({ memories });
  } else {
    const input = JSON.parse(userText(request)) as { candidates: Array<{ index: number; existing: Array<{ id: string }> }> };
    text = JSON.stringify({
      decisions: input.candidates.map((c) => ({
        index: c.index,
        action: 'create',
        targetId: null,
        text: null,
        reason: 'different project',
      })),
    });
  }
  return {
    kind: 'text',
    text,
    usage: { inputTokens: estimateTokens(prompt) + (name === 'memories' ? 350 : 150), outputTokens: estimateTokens(text) },
  };
}

async function writeLog(home: string, records: L0Record[]): Promise<void> {
  await mkdir(join(home, 'conversations'), { recursive: true });
  await appendFile(join(home, 'conversations', '2026-11-01.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

export async function runDistillBench(
  options: { messages?: number } = {},
): Promise<Array<{ label: string; report: DistillReport; seconds: number }>> {
  const n = options.messages ?? 1000;
  const server = await startScriptedLlmServer({ script: model });
  const rows: Array<{ label: string; report: DistillReport; seconds: number }> = [];
  const budget = { maxCallsPerRun: 100_000, maxTokensPerRun: 1e9, maxCallsPerHour: 100_000, maxTokensPerHour: 1e9 };
  const caps = { maxMemoriesPerRun: 10_000, maxMemoriesPerAgent: 10_000, maxMessagesPerRun: 100_000 };
  try {
    for (const variant of [
      { label: 'LLM, 3000-token chunks', chunkTokens: 3000, llm: true },
      { label: 'LLM, 1000-token chunks', chunkTokens: 1000, llm: true },
      { label: 'rules (no LLM)', chunkTokens: 3000, llm: false },
    ]) {
      const home = await mkdtemp(join(tmpdir(), 'strata-bench-distill-'));
      const strata = await Strata.open({ home, overrides: { embedder: { provider: 'none' } } });
      try {
        await writeLog(home, syntheticConversation(n));
        const ctx = (strata as unknown as { ctx: EngineContext }).ctx;
        const llm = variant.llm
          ? createLlmClient({
              llm: createOpenAIChat({ baseURL: server.baseURL, model: 'bench', pricing: { inputPerMillion: 0.15, outputPerMillion: 0.6 } }),
            })
          : undefined;
        let started = performance.now();
        const report = await runDistill({ ctx, home, llm, budget, caps, chunkTokens: variant.chunkTokens });
        rows.push({ label: variant.label, report, seconds: (performance.now() - started) / 1000 });
        if (variant.llm && variant.chunkTokens === 3000) {
          started = performance.now();
          const again = await runDistill({ ctx, home, llm, budget, caps });
          rows.push({ label: '  rerun, nothing new', report: again, seconds: (performance.now() - started) / 1000 });
        }
      } finally {
        await strata.close();
        await rm(home, { recursive: true, force: true });
      }
    }
  } finally {
    await server.close();
  }
  const per1000 = (x: number) => (n > 0 ? (x * 1000) / n : 0);
  printTable(
    `Distillation cost per 1,000 captured messages (${n} messages, ${n / 10} sessions, scripted model)`,
    ['run', 'calls', 'in tok', 'out tok', 'tok / 1k msgs', 'USD / 1k msgs', 'memories', 'rejected', 's'],
    rows.map(({ label, report, seconds }) => [
      label,
      report.llmCalls,
      report.tokens.input,
      report.tokens.output,
      Math.round(per1000(report.tokens.total)),
      report.cost === null ? '-' : per1000(report.cost).toFixed(4),
      report.decisions.create + report.decisions.supersede + report.decisions['keep-both'],
      report.rejected.total,
      seconds,
    ]),
  );
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--messages');
  await runDistillBench({ messages: i > 0 ? Number(process.argv[i + 1]) : 1000 });
  await (await import('./distill-real.js')).runRealDistillBench();
}
