import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT, type CliResult } from '../support/run-cli.js';

/** Neutral environment: the outer shell's identity, home, guard or resident settings must not leak into the hooks. */
export const BASE_ENV: Record<string, string> = {
  STRATA_AGENT_ID: '',
  STRATA_HOME: '',
  STRATA_HOOK_GUARD: '',
  STRATA_RESIDENT: '',
  STRATA_RESIDENT_IDLE_MS: '120000',
};

/** Runs a TypeScript entry script from source in a child process (like runCli, for other entries). */
export function runScript(options: { script: string; args: string[]; input: string; env?: Record<string, string> }): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', options.script, ...options.args], {
      cwd: REPO_ROOT,
      env: { ...process.env, LANCEDB_LOG: 'error', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the resident process a test's hooks started in `home` (by its pid) and waits until it is gone. */
export async function stopResident(home: string): Promise<void> {
  const info = await readFile(join(home, 'run', 'resident.json'), 'utf8').then(
    (t) => JSON.parse(t) as { pid: number },
    () => undefined,
  );
  if (!info || !alive(info.pid)) return;
  process.kill(info.pid, 'SIGTERM');
  for (let i = 0; i < 200 && alive(info.pid); i++) await new Promise((r) => setTimeout(r, 50));
}
