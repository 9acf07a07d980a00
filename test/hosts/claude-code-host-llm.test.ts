import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strataConfigSchema } from '../../src/config/schema.js';

const parseConfig = (input: unknown) => strataConfigSchema.parse(input);
import { claudeCodeLlmOverrides, llmEnvFor } from '../../src/hosts/claude-code/host-llm.js';

let bin: string;
beforeAll(async () => {
  bin = await mkdtemp(join(tmpdir(), 'strata-cc-llm-bin-'));
  await writeFile(join(bin, 'claude'), '#!/bin/sh\nexit 0\n');
  await chmod(join(bin, 'claude'), 0o755);
});
afterAll(() => rm(bin, { recursive: true, force: true }));

describe('Claude Code hooks choose the claude-code LLM when none is configured', () => {
  const none = parseConfig({});
  it('chooses it when the claude CLI is on PATH and no llm is configured', () => {
    expect(claudeCodeLlmOverrides({ config: none, env: { PATH: bin } })).toEqual({ llm: { provider: 'claude-code' } });
  });
  it('leaves a configured llm, an explicit STRATA_LLM_PROVIDER (none included) and a missing CLI alone', () => {
    expect(claudeCodeLlmOverrides({ config: parseConfig({ llm: { provider: 'openai', model: 'm' } }), env: { PATH: bin } })).toBeUndefined();
    expect(claudeCodeLlmOverrides({ config: none, env: { PATH: bin, STRATA_LLM_PROVIDER: 'none' } })).toBeUndefined();
    expect(claudeCodeLlmOverrides({ config: none, env: { PATH: join(bin, 'nothing-here') } })).toBeUndefined();
  });
  it('background strata children inherit the choice', () => {
    expect(llmEnvFor(parseConfig({ llm: { provider: 'claude-code' } }), { A: '1' })).toEqual({ A: '1', STRATA_LLM_PROVIDER: 'claude-code' });
    expect(llmEnvFor(none, { A: '1' })).toEqual({ A: '1' });
  });
});
