/**
 * What Strata already put into one Claude Code session's context, so no memory is injected twice
 * into the same request. Claude Code keeps every hook's additionalContext in the conversation
 * (2.1.197 and 2.1.331 both replay earlier SessionStart and UserPromptSubmit context on every later
 * request, and again after `--resume`), so a memory injected once stays visible until compaction.
 *
 * Kept per session id in `<home>/state/claude-code/sessions/<id>.json` (0600) as the injected
 * blocks themselves: a memory counts as present when its escaped one-line text occurs in one of
 * them. A session seen for the first time on resume or fork (another process injected, or state
 * was lost) is seeded from the hook context recorded in its transcript.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeMemoryText } from '../../core/recall/context-format.js';
import { readFileTail } from '../../util/read-tail.js';

/**
 * Replaces a small state file without fsync: it runs on every prompt, and losing it in a crash
 * only means a memory may be sent once more. The rename still keeps readers from a torn file.
 */
export async function writeStateFile(path: string, data: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, data, { mode: 0o600 });
  await rename(temp, path).catch(async (error: unknown) => {
    await unlink(temp).catch(() => undefined);
    throw error;
  });
}

/** Blocks kept per session: beyond this the oldest go (they are long out of a compacted context). */
const MAX_BLOCKS = 200;
/** Transcript bytes read (from the end) to seed a session: hook context of a long session's tail. */
const SEED_BYTES = 8 * 1024 * 1024;
/** Session files untouched this long are removed (Claude Code deletes transcripts after 30 days by default). */
const RETENTION_MS = 45 * 86_400_000;

/** The form a memory takes inside an injected block (see formatMemoryLine). */
export function injectedForm(text: string): string {
  return escapeMemoryText(
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

interface SessionState {
  v: 1;
  blocks: string[];
}

function validId(sessionId: string): boolean {
  return /^[A-Za-z0-9._-]{1,128}$/.test(sessionId);
}

/** Hook context blocks recorded in a transcript: attachment lines (2.1.207+) and `isMeta` reminders (older). */
export async function hookContextInTranscript(transcriptPath: string): Promise<string[]> {
  const text = await readFileTail(transcriptPath, SEED_BYTES);
  if (text === undefined) return [];
  const blocks: string[] = [];
  for (const line of text.split('\n')) {
    // Cheap filter first: only lines that can hold Strata's blocks are parsed.
    if (!line.includes('relevant-memories') && !line.includes('agent-context') && !line.includes('compact_boundary')) continue;
    try {
      const entry = JSON.parse(line) as {
        type?: string;
        subtype?: string;
        isMeta?: boolean;
        attachment?: { type?: string; content?: unknown };
        message?: { content?: unknown };
      };
      // Context before a compaction is gone from the conversation (the summary replaces it).
      if (entry.type === 'system' && entry.subtype === 'compact_boundary') blocks.length = 0;
      const content =
        entry.attachment?.type === 'hook_additional_context' ? entry.attachment.content : entry.isMeta ? entry.message?.content : undefined;
      const parts = Array.isArray(content) ? content : [content];
      for (const part of parts) if (typeof part === 'string') blocks.push(part);
    } catch {
      // a torn last line or a foreign format: not ours
    }
  }
  return blocks;
}

export class InjectionStore {
  private readonly cache = new Map<string, SessionState>();
  private readonly dir: string;

  constructor(options: { home: string }) {
    this.dir = join(options.home, 'state', 'claude-code', 'sessions');
  }

  private path(sessionId: string): string {
    return join(this.dir, `${sessionId}.json`);
  }

  private async load(sessionId: string): Promise<SessionState | undefined> {
    const cached = this.cache.get(sessionId);
    if (cached) return cached;
    try {
      const parsed = JSON.parse(await readFile(this.path(sessionId), 'utf8')) as SessionState;
      if (parsed.v === 1 && Array.isArray(parsed.blocks)) {
        this.cache.set(sessionId, parsed);
        return parsed;
      }
    } catch {
      // missing or unreadable: treated as a session with nothing injected yet
    }
    return undefined;
  }

  /**
   * The blocks in the session's context. `fresh`: the context starts empty (startup, clear,
   * compact); otherwise a session without state is seeded from its transcript (resume, fork).
   */
  async begin(options: { sessionId?: string; transcriptPath?: string; fresh: boolean }): Promise<string[]> {
    const { sessionId } = options;
    if (!sessionId || !validId(sessionId)) return [];
    if (options.fresh) {
      const state: SessionState = { v: 1, blocks: [] };
      this.cache.set(sessionId, state);
      await this.save(sessionId, state);
      return [];
    }
    const known = await this.load(sessionId);
    if (known) return known.blocks;
    const seeded: SessionState = { v: 1, blocks: options.transcriptPath ? await hookContextInTranscript(options.transcriptPath) : [] };
    this.cache.set(sessionId, seeded);
    return seeded.blocks;
  }

  /** Records text added to the session's context. */
  async add(sessionId: string | undefined, block: string): Promise<void> {
    if (!sessionId || !validId(sessionId) || !block) return;
    const state = (await this.load(sessionId)) ?? { v: 1 as const, blocks: [] };
    state.blocks.push(block);
    if (state.blocks.length > MAX_BLOCKS) state.blocks.splice(0, state.blocks.length - MAX_BLOCKS);
    this.cache.set(sessionId, state);
    await this.save(sessionId, state);
  }

  private async save(sessionId: string, state: SessionState): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeStateFile(this.path(sessionId), JSON.stringify(state));
  }

  /** Removes state of sessions untouched for the retention period. */
  async prune(now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      const path = join(this.dir, name);
      const s = await stat(path).catch(() => undefined);
      if (s && now - s.mtimeMs > RETENTION_MS) {
        await unlink(path).catch(() => undefined);
        this.cache.delete(name.replace(/\.json$/, ''));
        removed += 1;
      }
    }
    return removed;
  }
}

/** True when the memory's text already sits in one of the blocks. */
export function alreadyInjected(blocks: readonly string[], text: string): boolean {
  const form = injectedForm(text);
  return form.length > 0 && blocks.some((b) => b.includes(form));
}
