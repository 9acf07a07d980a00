import { createInterface } from 'node:readline/promises';
import { InvalidArgumentError } from '../errors/index.js';

/**
 * Asks before a destructive step: `--yes` skips the question; without a terminal to ask on, the
 * command refuses (a script must say --yes) rather than deleting unasked.
 */
export async function confirmOrRefuse(options: { yes?: boolean; question: string; refusal: string }): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY)
    throw new InvalidArgumentError({ argument: '--yes', message: `${options.refusal} Re-run with --yes to confirm.` });
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${options.question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
