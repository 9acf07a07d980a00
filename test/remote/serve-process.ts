/** A real `strata serve` child process whose stderr is kept, so a failing test can show the server's log. */
import { spawn } from 'node:child_process';
import { CLI } from '../hosts/mcp-helpers.js';
import { REPO_ROOT } from '../support/run-cli.js';

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
