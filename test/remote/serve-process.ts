/** A real `strata serve` child process whose stderr is kept, so a failing test can show the server's log. */
import { spawnServer, type SpawnedServer } from '../hosts/spawn-server.js';
import { rm } from 'node:fs/promises';
import { runCli, tempHome } from '../support/run-cli.js';

export type ServeProcess = SpawnedServer;

/** `strata serve` on a free port, as a child process. */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  return spawnServer([...args, 'serve', '--port', '0'], env);
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
