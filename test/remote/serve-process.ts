/** A real `strata serve` child process whose stderr is kept, so a failing test can show the server's log. */
import { spawn } from 'node:child_process';
import { CLI } from '../hosts/mcp-helpers.js';
import { rm } from 'node:fs/promises';
import { REPO_ROOT, runCli, tempHome } from '../support/run-cli.js';

export interface ServeProcess {
  url: string;
  log(): string;
  stop(): Promise<number | null>;
}

export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args, 'serve', '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LANCEDB_LOG: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const match = /on (http:\/\/[^\s/]+)/.exec(stderr);
      if (match)
        resolve({
          url: match[1]!,
          log: () => stderr,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    void exited.then((code) => reject(new Error(`strata serve exited with ${code}: ${stderr}`)));
  });
}

export interface RemoteService {
  home: string;
  server: ServeProcess;
  /** agent -> bearer token */
  tokens: Record<string, string>;
  close(): Promise<void>;
}

/** A `strata serve` on a fresh LanceDB home with one token per agent, made by the real `strata tokens create`. */
export async function remoteService(agents: string[]): Promise<RemoteService> {
  const home = await tempHome();
  const tokens: Record<string, string> = {};
  for (const agent of agents) {
    const out = await runCli(['--home', home, '--json', 'tokens', 'create', '--agent', agent]);
    if (out.code !== 0) throw new Error(`strata tokens create failed: ${out.stderr}`);
    tokens[agent] = (JSON.parse(out.stdout) as { token: string }).token;
  }
  const server = await startServe(['--home', home]);
  return {
    home,
    server,
    tokens,
    async close() {
      await server.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
