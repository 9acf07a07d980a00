/**
 * Claude Code users already have a model: when no `llm` is configured, the hooks (resident or
 * in-process) distill with the user's own `claude` CLI (the `claude-code` provider, haiku by
 * default) instead of falling back to rules. An `llm.provider` the user named (config.json or
 * `STRATA_LLM_PROVIDER`, `none` included) always wins; so does a missing CLI.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { LoadedConfig } from '../../config/load.js';
import type { StrataConfig } from '../../config/schema.js';

/** Whether `command` resolves to an executable on `env.PATH` (or is an executable path). */
export function findExecutable(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** Config overrides that choose the claude-code LLM, or undefined when another choice stands. */
export function claudeCodeLlmOverrides(options: {
  loaded: Pick<LoadedConfig, 'config' | 'llmProviderSet'>;
  env: NodeJS.ProcessEnv;
}): { llm: { provider: 'claude-code' } } | undefined {
  const { config, llmProviderSet } = options.loaded;
  if (llmProviderSet || options.env.STRATA_LLM_PROVIDER?.trim()) return undefined;
  if (config.llm.provider !== 'none') return undefined;
  return findExecutable(config.llm.command ?? 'claude', options.env) ? { llm: { provider: 'claude-code' } } : undefined;
}

/** The environment for a background `strata` child, so it uses the LLM the hooks chose. */
export function llmEnvFor(config: Pick<StrataConfig, 'llm'>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return config.llm.provider === 'claude-code' && !env.STRATA_LLM_PROVIDER ? { ...env, STRATA_LLM_PROVIDER: 'claude-code' } : env;
}
