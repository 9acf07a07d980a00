import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const CLI_SOURCE = join(REPO_ROOT, 'src/cli/main.ts');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI from source in a child process (always the current code, never a stale build);
 * `prefix` runs it through another command (e.g. `ip netns exec <ns>`, on another test host).
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string | Buffer; cwd?: string; prefix?: string[] } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const command = [...(options.prefix ?? []), process.execPath, '--import', 'tsx', CLI_SOURCE, ...args];
    const child = spawn(command[0]!, command.slice(1), {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, LANCEDB_LOG: 'error', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh Strata home; `embedder: 'none'` keeps CLI tests fast (no model load). */
export async function tempHome(config: Record<string, unknown> = { embedder: { provider: 'none' } }): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'strata-test-'));
  await writeFile(join(home, 'config.json'), JSON.stringify(config));
  return home;
}
