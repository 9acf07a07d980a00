/**
 * The resident Strata process of one home: one warm engine (store open, embedding model loaded)
 * behind a local socket, so hooks (and later the MCP server and the CLI) answer in a round trip
 * instead of a cold start. Local only: a unix socket in `<home>/run` (dir 0700, socket 0600), or
 * loopback TCP when the path is too long for a socket; every request carries the per-home token
 * from `<home>/run/resident.json` (0600). One per home (a lock file), so it is the one writer.
 * It leaves after `idleMs` without requests or background work, and when config.json changes
 * (the next call starts a fresh one with the new config).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from '../util/atomic-write.js';
import { EXIT_ALREADY_RUNNING, readResidentInfo } from './client.js';
import {
  LineDecoder,
  MAX_SOCKET_PATH,
  RESIDENT_PROTOCOL,
  alive,
  encodeMessage,
  residentPaths,
  type ResidentCaller,
  type ResidentEndpoint,
  type ResidentErrorBody,
  type ResidentInfo,
  type ResidentRequest,
  type ResidentResponse,
} from './protocol.js';
import { TaskQueue } from './tasks.js';

export interface ResidentOpContext<E> {
  home: string;
  caller: ResidentCaller;
  /** The warm engine (opened once; the same instance for every request). */
  engine(): Promise<E>;
  /** Serial background work that outlives the request, one queue per name (e.g. fast captures apart from slow distills). */
  queue(name: string): TaskQueue;
  log(message: string): void;
}

export type ResidentOp<E> = (ctx: ResidentOpContext<E>, input: unknown) => Promise<unknown>;

export interface RunResidentOptions<E extends { close(): Promise<void> }> {
  home: string;
  stamp: string;
  /** Leave after this long without requests or background work. */
  idleMs: number;
  openEngine: () => Promise<E>;
  /** Loaded after the socket is up, so a starting client finds the resident early. */
  loadOps: () => Promise<Record<string, ResidentOp<E>>>;
  /** Runs once the engine is open (e.g. load the embedding model before the first prompt). */
  warmUp?: (engine: E) => Promise<void>;
  log?: (message: string) => void;
}

interface ConfigStamp {
  mtimeMs: number;
  size: number;
}

async function configStamp(home: string): Promise<ConfigStamp | null> {
  const s = await stat(join(home, 'config.json')).catch(() => null);
  return s ? { mtimeMs: s.mtimeMs, size: s.size } : null;
}

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

function errorBody(error: unknown): ResidentErrorBody {
  const e = error as { code?: unknown; message?: unknown; details?: unknown };
  const body: ResidentErrorBody = {
    code: typeof e?.code === 'string' ? e.code : 'INTERNAL',
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
  if (e?.details && typeof e.details === 'object') body.details = e.details as Record<string, unknown>;
  return body;
}

async function listen(server: Server, home: string): Promise<ResidentEndpoint> {
  const paths = residentPaths(home);
  if (paths.socket.length <= MAX_SOCKET_PATH) {
    // We hold the lock: a socket file left here belongs to a resident that died.
    await unlink(paths.socket).catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(paths.socket, () => resolve());
    });
    await chmod(paths.socket, 0o600);
    return { kind: 'unix', path: paths.socket };
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('loopback listen returned no port');
  return { kind: 'tcp', host: '127.0.0.1', port: address.port };
}

/**
 * The home's lock, or undefined when a live resident holds it. A lock whose holder died (its pid
 * file names a dead process) is broken at once instead of after the 30 s staleness, so hooks do
 * not fail for half a minute after a crash; the holder writes its pid right after locking.
 */
async function acquireLock(options: {
  lock: string;
  pidFile: string;
  onCompromised: (error: Error) => void;
}): Promise<(() => Promise<void>) | undefined> {
  const lock = () => lockfile.lock(options.lock, { stale: 30_000, update: 10_000, realpath: false, onCompromised: options.onCompromised });
  let release: () => Promise<void>;
  try {
    release = await lock();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const holder = Number(await readFile(options.pidFile, 'utf8').catch(() => 'NaN'));
    if (!Number.isInteger(holder) || holder <= 0 || alive(holder)) return undefined;
    // proper-lockfile only unlocks its own locks; the lock is the `<file>.lock` directory.
    await rm(`${options.lock}.lock`, { recursive: true, force: true });
    try {
      release = await lock();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
      throw again;
    }
  }
  await writeFile(options.pidFile, String(process.pid), { mode: 0o600 });
  return release;
}

/** Runs until idle, `shutdown`, SIGTERM/SIGINT or a config change; resolves with the exit code. */
export async function runResident<E extends { close(): Promise<void> }>(options: RunResidentOptions<E>): Promise<number> {
  const { home } = options;
  const log = options.log ?? ((m: string) => process.stderr.write(`${new Date().toISOString()} resident[${process.pid}] ${m}\n`));
  const paths = residentPaths(home);
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  await chmod(paths.dir, 0o700);
  await writeFile(paths.lock, '', { flag: 'a', mode: 0o600 });
  // Fires on a lock refresh (every 10 s), long after everything below exists.
  const acquired = await acquireLock({
    lock: paths.lock,
    pidFile: paths.pid,
    onCompromised: (e) => {
      log(`lock taken over (${e.message}); leaving`);
      void shutdown('lock lost');
    },
  });
  if (!acquired) return EXIT_ALREADY_RUNNING;
  const release = acquired;

  const token = randomBytes(24).toString('hex');
  const queues = new Map<string, TaskQueue>();
  const queue = (name: string): TaskQueue => {
    let q = queues.get(name);
    if (!q) {
      q = new TaskQueue({ onError: (key, error) => log(`background ${name}/${key} failed: ${errorBody(error).message}`) });
      queues.set(name, q);
    }
    return q;
  };
  const busy = () => [...queues.values()].some((q) => q.busy);
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let lastActivity = Date.now();
  let stopping: Promise<void> | undefined;
  let requests = 0;
  // Requests per operation (`status` reports them): how a test or `strata doctor` sees what was served here.
  const served: Record<string, number> = {};
  let enginePromise: Promise<E> | undefined;
  let configAtOpen: ConfigStamp | null | undefined;
  let ops: Record<string, ResidentOp<E>> | undefined;
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((r) => (resolveExit = r));

  const engine = (): Promise<E> => {
    if (!enginePromise) {
      const opening = (async () => {
        configAtOpen = await configStamp(home);
        return options.openEngine();
      })();
      enginePromise = opening;
      // A failed open (bad config.json) is retried by the next request, not cached forever.
      opening.catch(() => {
        if (enginePromise === opening) enginePromise = undefined;
      });
    }
    return enginePromise;
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const decoder = new LineDecoder();
    const reply = (response: ResidentResponse) => {
      if (!socket.destroyed) socket.write(encodeMessage(response));
    };
    socket.on('data', (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = decoder.push(chunk);
      } catch (error) {
        socket.destroy(error as Error);
        return;
      }
      for (const line of lines) void handle(line, reply);
    });
  });

  async function handle(line: string, reply: (r: ResidentResponse) => void): Promise<void> {
    let request: ResidentRequest;
    try {
      request = JSON.parse(line) as ResidentRequest;
    } catch {
      return;
    }
    const id = typeof request.id === 'number' ? request.id : 0;
    if (request.v !== RESIDENT_PROTOCOL || !sameToken(request.token, token)) {
      return reply({ id, ok: false, error: { code: 'RESIDENT_FORBIDDEN', message: 'bad token or protocol version' } });
    }
    lastActivity = Date.now();
    requests += 1;
    if (typeof request.op === 'string') served[request.op] = (served[request.op] ?? 0) + 1;
    if (request.op === 'ping') return reply({ id, ok: true, result: { pid: process.pid, stamp: options.stamp } });
    if (request.op === 'status') {
      return reply({
        id,
        ok: true,
        result: {
          pid: process.pid,
          stamp: options.stamp,
          requests,
          served,
          inFlight,
          background: busy(),
          rssBytes: process.memoryUsage().rss,
          uptimeMs: Math.round(process.uptime() * 1000),
        },
      });
    }
    if (request.op === 'shutdown') {
      reply({ id, ok: true, result: { stopping: true } });
      void shutdown('asked to stop');
      return;
    }
    if (stopping)
      return reply({ id, ok: false, error: { code: 'RESIDENT_RESTARTING', message: 'the resident is stopping; start a new one' } });
    // config.json changed since the engine opened: let a fresh resident load it.
    if (configAtOpen !== undefined && JSON.stringify(await configStamp(home)) !== JSON.stringify(configAtOpen)) {
      void shutdown('config.json changed');
      return reply({ id, ok: false, error: { code: 'RESIDENT_RESTARTING', message: 'config.json changed; restarting' } });
    }
    inFlight += 1;
    try {
      ops ??= await options.loadOps();
      const op = ops[request.op];
      if (!op)
        return reply({ id, ok: false, error: { code: 'UNKNOWN_OPERATION', message: `unknown operation ${JSON.stringify(request.op)}` } });
      const result = await op({ home, caller: request.caller ?? {}, engine, queue, log }, request.input);
      reply({ id, ok: true, result });
    } catch (error) {
      reply({ id, ok: false, error: errorBody(error) });
    } finally {
      inFlight -= 1;
      lastActivity = Date.now();
    }
  }

  function shutdown(reason: string): Promise<void> {
    stopping ??= (async () => {
      log(`stopping: ${reason}`);
      clearInterval(idleTimer);
      server.close();
      const info = await readResidentInfo(home);
      if (info?.pid === process.pid) await unlink(paths.info).catch(() => undefined);
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
      await Promise.all([...queues.values()].map((q) => q.stop()));
      for (const socket of sockets) socket.destroy();
      if (enginePromise)
        await enginePromise.then(
          (e) => e.close(),
          () => undefined,
        );
      if ((await readFile(paths.pid, 'utf8').catch(() => '')) === String(process.pid)) await unlink(paths.pid).catch(() => undefined);
      await release().catch(() => undefined);
      resolveExit(0);
    })();
    return stopping;
  }

  const endpoint = await listen(server, home);
  const info: ResidentInfo = { pid: process.pid, stamp: options.stamp, token, endpoint, startedAt: new Date().toISOString() };
  await writeFileAtomic({ path: paths.info, data: JSON.stringify(info), mode: 0o600 });
  log(`listening (${endpoint.kind === 'unix' ? endpoint.path : `127.0.0.1:${endpoint.port}`}), idle exit after ${options.idleMs} ms`);

  const idleTimer = setInterval(
    () => {
      if (inFlight === 0 && !busy() && Date.now() - lastActivity >= options.idleMs) void shutdown('idle');
    },
    Math.min(options.idleMs, 30_000),
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void shutdown(signal));

  // Warm up after the socket is up: the first prompt finds the store open and the model loaded.
  void (async () => {
    try {
      ops ??= await options.loadOps();
      const e = await engine();
      await options.warmUp?.(e);
      log(`warm after ${Math.round(process.uptime() * 1000)} ms`);
    } catch (error) {
      log(`warm-up failed: ${errorBody(error).message}`);
    }
  })();

  return exited;
}
