import { spawn } from 'node:child_process';
import { REPO_ROOT, type CliResult } from '../support/run-cli.js';

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
