import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { strataConfigSchema } from '../../src/config/schema.js';
import { claudeCodeLlmOverrides, llmEnvFor } from '../../src/hosts/claude-code/host-llm.js';

const parseConfig = (input: unknown) => strataConfigSchema.parse(input);

let bin: string;
let root: string;
beforeAll(async () => {
  bin = await mkdtemp(join(tmpdir(), 'strata-cc-llm-bin-'));
  root = await mkdtemp(join(tmpdir(), 'strata-cc-llm-home-'));
  await writeFile(join(bin, 'claude'), '#!/bin/sh\nexit 0\n');
  await chmod(join(bin, 'claude'), 0o755);
});
afterAll(async () => {
  await rm(bin, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

/** What the hooks decide for a home whose config.json holds `file` (none when undefined). */
async function choice(name: string, file: unknown, env: NodeJS.ProcessEnv = {}) {
  const home = join(root, name);
  await mkdir(home, { recursive: true });
  if (file !== undefined) await writeFile(join(home, 'config.json'), JSON.stringify(file));
  const full = { PATH: bin, ...env };
  return claudeCodeLlmOverrides({ loaded: await loadConfig({ home, env: full }), env: full });
}

describe('Claude Code hooks choose the claude-code LLM when none is configured', () => {
  it('chooses it when the claude CLI is on PATH and the user named no llm provider', async () => {
    expect(await choice('no-file', undefined)).toEqual({ llm: { provider: 'claude-code' } });
    expect(await choice('no-llm', { embedder: { provider: 'none' } })).toEqual({ llm: { provider: 'claude-code' } });
    expect(await choice('llm-without-provider', { llm: { model: 'x' } })).toEqual({ llm: { provider: 'claude-code' } });
  });

  it('an explicit llm.provider "none" in config.json wins over the automatic choice', async () => {
    expect(await choice('explicit-none', { llm: { provider: 'none' } })).toBeUndefined();
  });

  it('leaves a configured llm, an explicit STRATA_LLM_PROVIDER (none included) and a missing CLI alone', async () => {
    expect(await choice('openai', { llm: { provider: 'openai', model: 'm' } })).toBeUndefined();
    expect(await choice('env-none', undefined, { STRATA_LLM_PROVIDER: 'none' })).toBeUndefined();
    expect(await choice('no-cli', undefined, { PATH: join(bin, 'nothing-here') })).toBeUndefined();
  });

  it('background strata children inherit the choice', () => {
    expect(llmEnvFor(parseConfig({ llm: { provider: 'claude-code' } }), { A: '1' })).toEqual({
      A: '1',
      STRATA_LLM_PROVIDER: 'claude-code',
    });
    expect(llmEnvFor(parseConfig({}), { A: '1' })).toEqual({ A: '1' });
  });
});
