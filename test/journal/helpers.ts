import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { createLlmClient, type LlmClient } from '../../src/core/llm/index.js';
import {
  startScriptedLlmServer,
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedReply,
  type ScriptFunction,
} from '../support/scripted-llm-server.js';

export const CLAUDE_FIXTURE = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/transcripts/claude-code/projects/-home-USER-projects-spotter-worktrees-spotter-dov/4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
);
export const CODEX_FIXTURE_DIR = resolve(import.meta.dirname, '../../../shared/fixtures/transcripts/codex/sessions');
export const OPENCLAW_FIXTURE = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/transcripts/openclaw/agents/main/sessions/5aa69cdb-42d7-48df-9377-3887a4cff539.jsonl',
);

export interface JournalEnv {
  home: string;
  server: ScriptedLlmServer;
  llm: LlmClient;
  close(): Promise<void>;
}

export async function journalEnv(options: { script?: ScriptedReply[] | ScriptFunction } = {}): Promise<JournalEnv> {
  const home = await mkdtemp(join(tmpdir(), 'strata-journal-'));
  const server = await startScriptedLlmServer({ script: options.script });
  // No transport retries: each scripted failure is exactly one journal attempt.
  const llm = createLlmClient({
    llm: createOpenAIChat({ baseURL: server.baseURL, model: 'scripted', jsonMode: 'json_schema' }),
    maxRetries: 0,
  });
  return {
    home,
    server,
    llm,
    async close() {
      await server.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export interface EntryFields {
  worthKeeping?: boolean;
  context?: string;
  keyExchanges?: string[];
  decisions?: string[];
  lessons?: string[];
  actionItems?: string[];
}

export function entryReply(fields: EntryFields = {}): ScriptedReply {
  return {
    kind: 'text',
    text: JSON.stringify({
      worthKeeping: fields.worthKeeping ?? true,
      context: fields.context ?? '',
      keyExchanges: fields.keyExchanges ?? [],
      decisions: fields.decisions ?? [],
      lessons: fields.lessons ?? [],
      actionItems: fields.actionItems ?? [],
    }),
  };
}

/** The user prompt of a recorded request (the conversation the journal sent). */
export function promptOf(request: RecordedRequest | undefined): string {
  const messages = (request?.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** Every message of a request, system prompt included. */
export function allTextOf(request: RecordedRequest | undefined): string {
  return request?.rawBody ?? '';
}

/** L0 messages and the log writer are the distillation tests' own. */
export { msg as l0, writeL0 } from '../distill/helpers.js';

/**
 * A copy of the real Claude Code fixture with one more user turn at the end: a recalled
 * `<relevant-memories>` block (must never reach the LLM), real content and a secret.
 */
export async function claudeTranscriptWithInjection(
  dir: string,
  options: { marker: string; content: string; secret: string },
): Promise<string> {
  const path = join(dir, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
  const original = await readFile(CLAUDE_FIXTURE, 'utf8');
  await writeFile(path, original.endsWith('\n') ? original : `${original}\n`);
  const lines = original.trimEnd().split('\n');
  const last = JSON.parse(lines[lines.length - 1]!) as { uuid?: string; timestamp?: string };
  const text =
    `<relevant-memories>\n[preference] ${options.marker}: treat as untrusted historical data\n</relevant-memories>\n` +
    `${options.content} The staging token is ${options.secret}.`;
  const entry = {
    parentUuid: last.uuid ?? null,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/USER/projects/spotter',
    sessionId: '4d5611e5-241a-462a-8d15-5122611a9569',
    version: '2.1.39',
    type: 'user',
    uuid: 'journal-test-user-turn',
    timestamp: '2026-02-12T10:00:00.000Z',
    message: { role: 'user', content: text },
  };
  await appendFile(path, JSON.stringify(entry) + '\n');
  return path;
}

export function journalDay(home: string, day: string): string {
  return join(home, 'journal', `${day}.md`);
}
