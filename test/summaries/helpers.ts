import { appendFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChat } from '../../src/backends/llm-openai/index.js';
import { createLlmClient, type LlmClient } from '../../src/core/llm/index.js';
import type { SummaryIndex } from '../../src/core/summaries/index.js';
import type { L0Record } from '../../src/spec/conversation.js';
import type { RecordedRequest, ScriptedReply } from '../support/scripted-llm-server.js';

export async function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'strata-summaries-'));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** 200 ASCII characters: exactly 50 estimated tokens, so chunk arithmetic can be done by hand. */
export function content50(label: string): string {
  return `${label} `.padEnd(200, 'abcdefghij'.repeat(20)).slice(0, 200);
}

/** `count` messages of 50 tokens each, ten minutes apart (so long sessions span several day files). */
export function session(options: { agent?: string; key: string; count: number; start?: string }): L0Record[] {
  const agent = options.agent ?? 'main';
  const start = Date.parse(options.start ?? '2026-01-01T00:00:00Z');
  return Array.from({ length: options.count }, (_, i) => {
    const at = new Date(start + i * 600_000).toISOString();
    return {
      sessionKey: options.key,
      sessionId: `${options.key}-sid`,
      agentId: agent,
      host: 'live',
      id: `m${String(i).padStart(4, '0')}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: content50(`${options.key} message ${i}`),
      timestamp: Date.parse(at),
      recordedAt: at,
    } satisfies L0Record;
  });
}

/** Appends records to the L0 day file of their recording time, in the capture file format. */
export async function writeL0(home: string, records: L0Record[]): Promise<void> {
  const dir = join(home, 'conversations');
  await mkdir(dir, { recursive: true });
  const byDay = new Map<string, string>();
  for (const r of records) {
    const day = r.recordedAt.slice(0, 10);
    byDay.set(day, (byDay.get(day) ?? '') + JSON.stringify(r) + '\n');
  }
  for (const [day, text] of byDay) await appendFile(join(dir, `${day}.jsonl`), text);
}

export function keyOf(r: L0Record): string {
  return `${r.host}|${r.agentId}|${r.sessionId}|${r.id}`;
}

export function llmClient(baseURL: string): LlmClient {
  return createLlmClient({ llm: createOpenAIChat({ baseURL, model: 'scripted' }), maxRetries: 0 });
}

export function userText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: string }>;
  return messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** A summariser model: names what it was asked to do, so tests can tell chunk and merge calls apart. */
export function summaryModel(request: RecordedRequest, index: number): ScriptedReply {
  const kind = userText(request).includes('<transcript>') ? 'chunk' : 'merge';
  return { kind: 'text', text: `${kind} summary #${index}: the user and the agent discussed things.` };
}

/** Every index under `<home>/summaries`, keyed by session key. */
export async function readIndexes(home: string): Promise<Map<string, SummaryIndex>> {
  const out = new Map<string, SummaryIndex>();
  const root = join(home, 'summaries');
  for (const agent of await readdir(root).catch(() => [] as string[])) {
    for (const dir of await readdir(join(root, agent))) {
      const index = JSON.parse(await readFile(join(root, agent, dir, 'index.json'), 'utf8')) as SummaryIndex;
      out.set(index.sessionKey, index);
    }
  }
  return out;
}

export function countByLevel(index: SummaryIndex | undefined, unmergedOnly = false): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of index?.summaries ?? []) if (!unmergedOnly || s.mergedInto === null) out[s.level] = (out[s.level] ?? 0) + 1;
  return out;
}

/**
 * The index invariants a crash or failure must never break: unique ids, every file present,
 * merge links both ways, no message in two chunk summaries.
 */
export async function assertConsistent(home: string, sessionDir: string, index: SummaryIndex): Promise<void> {
  const ids = new Set<string>();
  const keys = new Set<string>();
  const byId = new Map(index.summaries.map((s) => [s.id, s]));
  for (const s of index.summaries) {
    if (ids.has(s.id)) throw new Error(`duplicate id ${s.id}`);
    ids.add(s.id);
    const text = await readFile(join(sessionDir, s.file), 'utf8');
    if (!text.trim()) throw new Error(`empty file ${s.file}`);
    if (s.level === 1) {
      for (const k of s.sourceIds) {
        if (keys.has(k)) throw new Error(`message ${k} in two chunk summaries`);
        keys.add(k);
      }
    } else {
      for (const child of s.sourceIds) {
        const c = byId.get(child);
        if (!c || c.level !== s.level - 1 || c.mergedInto !== s.id) throw new Error(`bad merge link ${child} -> ${s.id}`);
      }
    }
    if (s.mergedInto !== null && !byId.get(s.mergedInto)?.sourceIds.includes(s.id)) throw new Error(`dangling mergedInto on ${s.id}`);
  }
  void home;
}
