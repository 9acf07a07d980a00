import { join } from 'node:path';
import { runTsChild } from '../support/run-child.js';

/**
 * Runs `script` (a file beside this one) in its own Node process through tsx, as another machine
 * would run it, and resolves the JSON its last stdout line holds.
 */
export function runJsonChild<T>(script: string, args: string[], label = script): Promise<T> {
  return runTsChild<T>({ script: join(import.meta.dirname, script), args, label });
}
