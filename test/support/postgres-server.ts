/**
 * A real PostgreSQL server on a temp data dir, reachable through a unix socket in that dir (no
 * port to collide with other test runs) or, when asked, on 127.0.0.1. PostgreSQL refuses to run
 * as root, so under root the server runs as `nobody`.
 */
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { appendFile, chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ensurePostgresBinaries } from './postgres-binaries.js';

const run = promisify(execFile);
const SOCKET_PORT = 5432;

export interface PostgresServerInfo {
  pid: number;
  dir: string;
  /** Unix socket folder (always listening). */
  socketDir: string;
  /** TCP port on 127.0.0.1, when started with `tcp`. */
  tcpPort: number | null;
}

export interface StartOptions {
  /** Folder for data, socket and log; default a new temp folder (removed by `stopPostgres`). */
  dir?: string;
  /**
   * Also listen on TCP (port 0 = a free one) at `host` (default 127.0.0.1), accepting clients from
   * `allowFrom` (a CIDR, e.g. another network namespace's subnet) as well as from loopback.
   */
  tcp?: { port: number; host?: string; allowFrom?: string };
  /** Leave the server running when this process exits (a shared server stopped by someone else). */
  detached?: boolean;
  /** Server settings over the test defaults (e.g. `{ fsync: 'on' }` for a benchmark). */
  settings?: Record<string, string>;
}

/** Connection URL for one database of the server (socket unless `tcp`). */
export function postgresUrl(info: PostgresServerInfo, database = 'postgres', via: 'socket' | 'tcp' = 'socket'): string {
  if (via === 'tcp') {
    if (info.tcpPort === null) throw new Error('This server was started without tcp.');
    return `postgresql://postgres@127.0.0.1:${info.tcpPort}/${encodeURIComponent(database)}`;
  }
  // The socket's name carries the port the server runs on.
  const port = info.tcpPort ?? SOCKET_PORT;
  return `postgresql://postgres@localhost:${port}/${encodeURIComponent(database)}?host=${encodeURIComponent(info.socketDir)}`;
}

export async function startPostgres(options: StartOptions = {}): Promise<PostgresServerInfo> {
  const bin = await ensurePostgresBinaries();
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'strata-pg-')));
  await mkdir(dir, { recursive: true });
  const owner = await serverUser();
  if (owner) await chown(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const spawnAs = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const env = { PATH: process.env.PATH ?? '', LC_ALL: 'C', LANG: 'C' };
  await new Promise<void>((resolve, reject) => {
    execFile(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'],
      { ...spawnAs, env },
      (error, _out, stderr) => (error ? reject(new Error(`initdb failed: ${stderr || error.message}`)) : resolve()),
    );
  });
  if (options.tcp?.allowFrom) await appendFile(join(data, 'pg_hba.conf'), `host all all ${options.tcp.allowFrom} trust\n`);
  // A port chosen here can be bound by another process before postgres listens on it: start again on another.
  for (let attempt = 1; ; attempt++) {
    const tcpPort = options.tcp ? options.tcp.port || (await freePort()) : null;
    try {
      return await launch({ dir, data, bin, owner, env, tcpPort, options });
    } catch (error) {
      const taken = options.tcp && !options.tcp.port && /could not bind|already in use/i.test(String(error));
      if (!taken || attempt >= 3) throw error;
    }
  }
}

async function launch(o: {
  dir: string;
  data: string;
  bin: string;
  owner: { uid: number; gid: number } | null;
  env: NodeJS.ProcessEnv;
  tcpPort: number | null;
  options: StartOptions;
}): Promise<PostgresServerInfo> {
  const { dir, data, bin, owner, env, tcpPort, options } = o;
  const spawnAs = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const log = openSync(join(dir, 'postgres.log'), 'a');
  if (owner) await chown(join(dir, 'postgres.log'), owner.uid, owner.gid);
  const settings = {
    listen_addresses: tcpPort === null ? '' : (options.tcp?.host ?? '127.0.0.1'),
    port: String(tcpPort ?? SOCKET_PORT),
    unix_socket_directories: dir,
    // Throwaway data: durability settings off make test writes cheap.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...options.settings,
  };
  const args = ['-D', data, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  const child = spawn(join(bin, 'postgres'), args, { ...spawnAs, env, stdio: ['ignore', log, log], detached: options.detached === true });
  closeSync(log);
  if (options.detached) child.unref();
  else process.once('exit', () => child.kill('SIGINT'));
  const info: PostgresServerInfo = { pid: child.pid ?? -1, dir, socketDir: dir, tcpPort };
  try {
    await waitUntilReady(info, child);
  } catch (error) {
    child.kill('SIGKILL');
    const text = await readFile(join(dir, 'postgres.log'), 'utf8').catch(() => '');
    throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${text.slice(-2000)}`, { cause: error });
  }
  return info;
}

/** Fast shutdown (SIGINT), waits for the process to go, removes the folder. */
export async function stopPostgres(info: PostgresServerInfo, options: { keepDir?: boolean } = {}): Promise<void> {
  if (alive(info.pid)) {
    process.kill(info.pid, 'SIGINT');
    const deadline = Date.now() + 30_000;
    // A zombie still answers kill(pid, 0); the pid file goes away once shutdown is complete.
    while (alive(info.pid) && existsSync(join(info.dir, 'data', 'postmaster.pid')) && Date.now() < deadline) await sleep(25);
    if (alive(info.pid) && existsSync(join(info.dir, 'data', 'postmaster.pid'))) process.kill(info.pid, 'SIGKILL');
  }
  if (!options.keepDir) await rm(info.dir, { recursive: true, force: true });
}

async function waitUntilReady(info: PostgresServerInfo, child: ReturnType<typeof spawn>): Promise<void> {
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== null) throw new Error(`postgres exited with ${exited}`);
    const client = new pg.Client({ connectionString: postgresUrl(info) });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(50);
  }
}

/** The unprivileged user the server runs as when we are root; null otherwise. */
async function serverUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = await Promise.all([run('id', ['-u', 'nobody']), run('id', ['-g', 'nobody'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
