import { spawn } from 'node:child_process';

/**
 * Runs a TypeScript file in a Node process of its own (another machine, in effect) and resolves
 * with the JSON its last stdout line holds; a non-zero exit or no JSON rejects with its stderr tail.
 */
export function runTsChild<T>(options: { script: string; args: string[]; label: string }): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', options.script, ...options.args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${options.label} exited ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as T);
      } catch (error) {
        reject(new Error(`${options.label} printed no result: ${out.slice(-500)} ${err.slice(-1000)}`, { cause: error }));
      }
    });
  });
}
