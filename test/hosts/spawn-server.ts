import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { REPO_ROOT } from '../support/run-cli.js';
import { CLI } from './mcp-helpers.js';

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far, for a failing test to show. */
  log(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts a long-running CLI server (`serve`, `mcp --http`) and waits for the URL it prints on
 * stderr. `prefix` runs it through another command (e.g. `ip netns exec <ns>`).
 */
export function spawnServer(args: string[], env: Record<string, string> = {}, prefix: string[] = []): Promise<SpawnedServer> {
  const command = [...prefix, process.execPath, '--import', 'tsx', CLI, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /on (http:\/\/[^\s/]+)/.exec(stderr);
      if (match) {
        resolve({
          url: match[1]!,
          child,
          log: () => stderr,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

/** A raw HTTP request (fetch cannot set Host, or send a body without its own framing rules). */
export function rawRequest(options: {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(options.url);
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method: options.method, headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
