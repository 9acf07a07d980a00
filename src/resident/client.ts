/**
 * Calling the resident Strata process of a home, starting it when it is not running. Node
 * built-ins only: hook processes import this on every call and must stay small (a warm call is a
 * file read and one socket round trip).
 *
 *   const { result } = await callResident({ home, stamp, op: 'ping', deadline: Date.now() + 5_000, start });
 *
 * Throws ResidentUnavailableError when no resident answers and none can be started (the caller
 * then runs the operation in-process), ResidentTimeoutError when the deadline passes, and
 * ResidentCallError when the operation itself failed inside the resident.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import {
  LineDecoder,
  RESIDENT_PROTOCOL,
  alive,
  encodeMessage,
  residentPaths,
  type ResidentCaller,
  type ResidentInfo,
  type ResidentResponse,
} from './protocol.js';

/** Exit code of a resident that found another one holding the home's lock. */
export const EXIT_ALREADY_RUNNING = 75;

export class ResidentUnavailableError extends Error {
  readonly code = 'RESIDENT_UNAVAILABLE';
}

export class ResidentTimeoutError extends Error {
  readonly code = 'RESIDENT_TIMEOUT';
}

/** The operation ran in the resident and failed; `code` is the Strata error code. */
export class ResidentCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** How to start the resident: `command ...args` must accept `--home` and `--stamp` (already in args). */
export interface ResidentStartSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface CallResidentOptions {
  home: string;
  /** The code version the caller expects; a resident with another stamp is asked to leave. */
  stamp: string;
  op: string;
  caller?: ResidentCaller;
  input?: unknown;
  /** Epoch ms after which the call gives up. */
  deadline: number;
  /** Omit to only use a resident that is already running. */
  start?: ResidentStartSpec;
}

export interface ResidentCallResult {
  result: unknown;
  /** True when this call started the resident (a cold call). */
  started: boolean;
}

/**
 * A dead resident's info file names the socket path a new resident already listens on, with the
 * old token: the info file is read again once the new one has written its own.
 */
function staleToken(error: unknown, info: ResidentInfo): boolean {
  return error instanceof ResidentCallError && error.code === 'RESIDENT_FORBIDDEN' && !alive(info.pid);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function readResidentInfo(home: string): Promise<ResidentInfo | undefined> {
  try {
    const info = JSON.parse(await readFile(residentPaths(home).info, 'utf8')) as ResidentInfo;
    return typeof info.token === 'string' && typeof info.stamp === 'string' && info.endpoint ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Nobody is listening (stale info file, resident gone): start one instead. */
class NotListeningError extends Error {}

let nextId = 1;

function exchange(options: {
  info: ResidentInfo;
  op: string;
  caller?: ResidentCaller;
  input?: unknown;
  deadline: number;
}): Promise<ResidentResponse> {
  const { info } = options;
  const id = nextId++;
  return new Promise((resolvePromise, reject) => {
    const socket: Socket = info.endpoint.kind === 'unix' ? connect(info.endpoint.path) : connect(info.endpoint.port, info.endpoint.host);
    let answered = false;
    let connected = false;
    const finish = (fn: () => void) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new ResidentTimeoutError(`the resident Strata process did not answer ${options.op} in time`))),
      Math.max(1, options.deadline - Date.now()),
    );
    const decoder = new LineDecoder();
    socket.on('connect', () => {
      connected = true;
      socket.write(
        encodeMessage({ v: RESIDENT_PROTOCOL, id, token: info.token, op: options.op, caller: options.caller, input: options.input }),
      );
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        for (const line of decoder.push(chunk)) {
          const response = JSON.parse(line) as ResidentResponse;
          if (response.id === id) return finish(() => resolvePromise(response));
        }
      } catch (error) {
        finish(() => reject(error));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const gone = !connected && ['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'EACCES'].includes(error.code ?? '');
      finish(() => reject(gone ? new NotListeningError(error.message) : error));
    });
    // Closed without an answer: a resident that stopped while we asked (idle exit, restart).
    socket.on('close', () => finish(() => reject(new NotListeningError('the resident closed the connection without answering'))));
  });
}

function unwrap(response: ResidentResponse): unknown {
  if (response.ok) return response.result;
  if (response.error.code === 'RESIDENT_RESTARTING') throw new NotListeningError(response.error.message);
  throw new ResidentCallError(response.error.code, response.error.message, response.error.details);
}

/** Starts the resident detached (it outlives this process), its output appended to its log. */
function spawnResident(home: string, spec: ResidentStartSpec): { exited: () => number | null | undefined } {
  const log = residentPaths(home).log;
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, 'a', 0o600);
  let exitCode: number | null | undefined;
  try {
    const child = spawn(spec.command, spec.args, { detached: true, stdio: ['ignore', fd, fd], env: spec.env });
    child.on('error', () => (exitCode = -1));
    child.on('exit', (code) => (exitCode = code ?? -1));
    child.unref();
  } finally {
    closeSync(fd);
  }
  return { exited: () => exitCode };
}

export async function callResident(options: CallResidentOptions): Promise<ResidentCallResult> {
  const { home, stamp, deadline } = options;
  const request = { op: options.op, caller: options.caller, input: options.input };
  const info = await readResidentInfo(home);
  if (info && info.stamp === stamp) {
    try {
      return { result: unwrap(await exchange({ info, ...request, deadline })), started: false };
    } catch (error) {
      if (!(error instanceof NotListeningError) && !staleToken(error, info)) throw error;
    }
  } else if (info && options.start) {
    // Other code (an npm update, a rebuild) is running: ask it to leave; ours takes over the home.
    // A caller that only uses a running resident (the CLI) leaves it alone and runs in-process.
    await exchange({ info, op: 'shutdown', deadline: Math.min(deadline, Date.now() + 2_000) }).catch(() => undefined);
  }
  if (!options.start) throw new ResidentUnavailableError('no resident Strata process is running for this home');
  let child = spawnResident(home, options.start);
  let respawnAt = 0;
  for (let wait = 10; Date.now() < deadline; wait = Math.min(wait * 1.5, 100)) {
    await sleep(wait);
    const current = await readResidentInfo(home);
    const code = child.exited();
    if (code !== undefined && code !== EXIT_ALREADY_RUNNING) {
      throw new ResidentUnavailableError(
        `the resident Strata process exited with code ${code} while starting; see ${residentPaths(home).log}`,
      );
    }
    if (!current || current.stamp !== stamp) {
      // 75: another resident held the lock (a concurrent start, or an old one leaving). Once that one
      // is gone without a successor answering, try again; a concurrent start shows up as the info file.
      if (code === EXIT_ALREADY_RUNNING) {
        respawnAt ||= Date.now() + 250;
        if (Date.now() >= respawnAt) {
          child = spawnResident(home, options.start);
          respawnAt = 0;
        }
      }
      continue;
    }
    try {
      return { result: unwrap(await exchange({ info: current, ...request, deadline })), started: true };
    } catch (error) {
      if (!(error instanceof NotListeningError) && !staleToken(error, current)) throw error;
    }
  }
  throw new ResidentTimeoutError(`the resident Strata process did not start in time for ${options.op}`);
}
