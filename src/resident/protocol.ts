/**
 * The wire format of the resident Strata process: newline-delimited JSON over a local socket.
 * A request names an operation, the caller and its input; the answer is the result or a typed
 * error. Generic on purpose: hooks use it now, the MCP server and the CLI can route the same
 * operations through it later. Node built-ins only: the hook entry imports this on every call.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const RESIDENT_PROTOCOL = 1;

export interface ResidentCaller {
  /**
   * The agent the caller acts as; the resident resolves its scopes from config. Undefined leaves
   * it to the resident's resolver (a hook's default agent); null is "no agent" (`global` only),
   * never the resident's default agent.
   */
  agentId?: string | null;
  /** Operator-given scopes (`--scope`), added like the one resolver adds them; never owner mode. */
  scopes?: string[];
}

export interface ResidentRequest {
  v: typeof RESIDENT_PROTOCOL;
  id: number;
  /** The per-home secret from the info file: only processes that can read the home may call. */
  token: string;
  op: string;
  caller?: ResidentCaller;
  input?: unknown;
}

export interface ResidentErrorBody {
  code: string;
  message: string;
  /** A typed error's details (e.g. the bad argument), so the caller rebuilds the same error. */
  details?: Record<string, unknown>;
}

export type ResidentResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ResidentErrorBody };

export type ResidentEndpoint = { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number };

/** `<home>/run/resident.json` (mode 0600): how to reach the running resident process. */
export interface ResidentInfo {
  pid: number;
  /** Identifies the code that runs (package version and entry file): a client of other code restarts it. */
  stamp: string;
  token: string;
  endpoint: ResidentEndpoint;
  startedAt: string;
}

export interface ResidentPaths {
  /** `<home>/run`, mode 0700. */
  dir: string;
  socket: string;
  info: string;
  lock: string;
  /** The pid of the lock's holder (a dead one's lock is broken at once). */
  pid: string;
  /** The resident's own stdout/stderr. */
  log: string;
}

export function residentPaths(home: string): ResidentPaths {
  const dir = join(home, 'run');
  return {
    dir,
    socket: join(dir, 'strata.sock'),
    info: join(dir, 'resident.json'),
    lock: join(dir, 'resident.lock'),
    pid: join(dir, 'resident.pid'),
    log: join(home, 'logs', 'resident.log'),
  };
}

/**
 * Unix socket paths are limited to ~107 bytes (sun_path); longer homes use loopback TCP with
 * the same token instead.
 */
export const MAX_SOCKET_PATH = 100;

/**
 * The home exactly as `resolveHome` in src/config/load.ts computes it (`--home`, else
 * `$STRATA_HOME`, else `~/.strata`), without loading the config module (zod and friends): the
 * hook entry must stay small. A test keeps the two in step.
 */
export function resolveHomeLight(options: { home?: string; env: NodeJS.ProcessEnv }): string {
  const chosen = options.home?.trim() || options.env.STRATA_HOME?.trim() || join(homedir(), '.strata');
  const expanded =
    chosen === '~' ? homedir() : chosen.startsWith('~/') || chosen.startsWith('~\\') ? join(homedir(), chosen.slice(2)) : chosen;
  return resolve(expanded);
}

export function encodeMessage(message: ResidentRequest | ResidentResponse): string {
  return JSON.stringify(message) + '\n';
}

/** Splits a byte stream into complete lines; a line over `maxBytes` is a protocol error. */
export class LineDecoder {
  private buffer = '';

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  push(chunk: Buffer | string): string[] {
    this.buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const lines: string[] = [];
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim()) lines.push(line);
      newline = this.buffer.indexOf('\n');
    }
    if (this.buffer.length > this.maxBytes) throw new Error(`resident protocol: a message exceeds ${this.maxBytes} bytes`);
    return lines;
  }
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
