/**
 * Detached `strata <command>` runs started from a hook or the resident (journal flush, summaries,
 * and the distillation of the in-process fallback): they outlive the process that starts them and
 * log to `<home>/logs/claude-code-hooks.log`, never to the hook's stdout (protocol JSON only).
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Set in the environment of every process Strata starts from a hook (and of the hook itself), so
 * anything Strata runs that could make Claude Code fire hooks again is a no-op there.
 */
export const HOOK_GUARD_ENV = 'STRATA_HOOK_GUARD';

export function isGuarded(env: NodeJS.ProcessEnv): boolean {
  const v = env[HOOK_GUARD_ENV];
  return v !== undefined && v !== '' && v !== '0';
}

/** How to start the full CLI again: `node [execArgv] <cli> …`. */
export interface CliLauncher {
  execPath: string;
  execArgv: string[];
  cli: string;
}

/** The CLI next to this file: dist/cli/main.js, or src/cli/main.ts under tsx. */
export function cliLauncher(): CliLauncher {
  const self = fileURLToPath(import.meta.url);
  const cli = fileURLToPath(new URL(`../../cli/main${extname(self)}`, import.meta.url));
  const execArgv = [...process.execArgv];
  if (cli.endsWith('.ts') && !execArgv.some((a) => a.includes('tsx'))) execArgv.push('--import', 'tsx');
  return { execPath: process.execPath, execArgv, cli };
}

export function startBackground(options: {
  home: string;
  agentId: string;
  launcher: CliLauncher;
  env: NodeJS.ProcessEnv;
  args: string[];
}): number | undefined {
  const logDir = join(options.home, 'logs');
  mkdirSync(logDir, { recursive: true });
  const log = openSync(join(logDir, 'claude-code-hooks.log'), 'a', 0o600);
  try {
    const { execPath, execArgv, cli } = options.launcher;
    const child = spawn(execPath, [...execArgv, cli, '--home', options.home, '--agent', options.agentId, ...options.args], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...options.env, [HOOK_GUARD_ENV]: '1' },
    });
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } finally {
    closeSync(log);
  }
}
