import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `script` (a file beside this one) in its own Node process through tsx, as another machine
 * would run it, and resolves the JSON its last stdout line holds; rejects with the tail of stderr
 * when it exits non-zero or prints no result.
 */
export function runJsonChild<T>(script: string, args: string[], label = script): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, script), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as T);
      } catch (error) {
        reject(new Error(`${label} printed no result: ${out.slice(-500)} ${err.slice(-1000)}`, { cause: error }));
      }
    });
  });
}
