import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonlL0Log } from '../../src/backends/l0-jsonl/index.js';
import { capture, type CaptureOptions } from '../../src/capture/live.js';
import { ingest, type IngestOptions } from '../../src/capture/ingest.js';
import type { L0Record } from '../../src/spec/conversation.js';
import type { L0LogV1, L0SessionInfo } from '../../src/spec/l0-log.js';

export const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'transcripts');
export const CLAUDE_PROJECT = '-home-USER-projects-spotter-worktrees-spotter-dov';
export const CLAUDE_SESSION = '4d5611e5-241a-462a-8d15-5122611a9569';
export const OPENCLAW_SESSION = '5aa69cdb-42d7-48df-9377-3887a4cff539';

/** A fresh temp folder; `cleanup` removes it. */
export function tempDir(prefix = 'strata-capture-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies one host's fixture tree (read-only input) into `dest`. */
export function copyFixture(host: 'openclaw' | 'claude-code' | 'codex', dest: string): string {
  const target = join(dest, host);
  cpSync(join(FIXTURES, host), target, { recursive: true });
  return target;
}

/** The home's L0 log (the daily JSONL files, as `Strata.open` wires it by default). */
export function l0Of(home: string): L0LogV1 {
  return createJsonlL0Log({ home });
}

export async function readL0(home: string): Promise<L0Record[]> {
  const out: L0Record[] = [];
  const log = l0Of(home);
  for (let after: string | undefined, done = false; !done;) {
    const page = await log.read({ after, limit: 10_000 });
    out.push(...page.entries.map((e) => e.record));
    ({ end: after, done } = page);
  }
  return out;
}

export function sessionsOf(home: string, filter: { agentId?: string } = {}): Promise<L0SessionInfo[]> {
  return l0Of(home).sessions(filter);
}

/** Capture's `ingest` into the home's L0 log (no conversation index: see `Strata.ingest`). */
export function ingestHome(options: Omit<IngestOptions, 'log'>): ReturnType<typeof ingest> {
  return ingest({ ...options, log: l0Of(options.home) });
}

export function captureHome(options: Omit<CaptureOptions, 'log'>): ReturnType<typeof capture> {
  return capture({ ...options, log: l0Of(options.home) });
}

/** pi SessionManager v3 lines, for generated sessions. */
export function piHeader(id: string): string {
  return JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-02-25T05:18:55.852Z', cwd: '/tmp' });
}

export function piMessage(i: number, role: 'user' | 'assistant', text: string, parentId: string | null = null): string {
  const id = `e${i.toString(16).padStart(7, '0')}`;
  const ts = 1_771_996_735_000 + i;
  const message =
    role === 'user'
      ? { role, content: [{ type: 'text', text }], timestamp: ts }
      : {
          role,
          content: [{ type: 'text', text }],
          api: 'anthropic-messages',
          provider: 'opencode',
          model: 'm',
          stopReason: 'stop',
          timestamp: ts,
        };
  return JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(ts).toISOString(), message });
}

/** A generated OpenClaw session of `n` alternating user/assistant messages with unique texts. */
export function piSession(sessionId: string, n: number, from = 0): string {
  const lines: string[] = from === 0 ? [piHeader(sessionId)] : [];
  for (let i = from; i < from + n; i += 1)
    lines.push(piMessage(i, i % 2 === 0 ? 'user' : 'assistant', `message number ${i} about topic ${i % 97}`));
  return lines.join('\n') + '\n';
}
