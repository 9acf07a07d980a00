/**
 * The claude-code LLM backend against fake `claude` executables (small Node scripts): what it
 * passes the CLI, how it reads the result, and each failure it must turn into a typed error. The
 * real CLI is driven in test/e2e/claude-code/llm-provider.e2e.ts.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClaudeCodeLlm } from '../../src/backends/llm-claude-code/index.js';
import { StrataError } from '../../src/errors/index.js';
import { isAbortError } from '../../src/provider-utils/retry.js';

let dir: string;

/** A fake CLI: records argv, env and stdin to `<name>.call.json`, then runs `body`. */
async function fakeCli(name: string, body: string): Promise<string> {
  const path = join(dir, name);
  const record = `require('fs').writeFileSync(${JSON.stringify(`${path}.call.json`)}, JSON.stringify({ argv: process.argv.slice(2), env: process.env, stdin, cwd: process.cwd(), pid: process.pid }));`;
  await writeFile(
    path,
    `#!${process.execPath}\nlet stdin = '';\nprocess.stdin.on('data', (d) => (stdin += d));\nprocess.stdin.on('end', () => {\n${record}\n${body}\n});\n`,
  );
  await chmod(path, 0o755);
  return path;
}

async function callOf(path: string): Promise<{ argv: string[]; env: Record<string, string>; stdin: string; cwd: string; pid: number }> {
  return JSON.parse(await readFile(`${path}.call.json`, 'utf8'));
}

const RESULT = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  result: '{"memories":[]}',
  stop_reason: 'end_turn',
  total_cost_usd: 0.0012,
  usage: { input_tokens: 40, cache_creation_input_tokens: 50, cache_read_input_tokens: 10, output_tokens: 7 },
};
const print = (value: unknown, code = 0) =>
  `process.stdout.write(${JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value))} + '\\n'); process.exitCode = ${code};`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-claude-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('claude-code LLM backend', () => {
  it('runs claude -p headless with no tools, MCP, hooks or session file, the prompt on stdin and the guard set', async () => {
    const cli = await fakeCli('ok', print(RESULT));
    const llm = createClaudeCodeLlm({ command: cli, env: { PATH: process.env.PATH, CLAUDECODE: '1', KEEP_ME: 'yes' } });
    const out = await llm.doGenerate({
      messages: [
        { role: 'system', content: 'You distill memories.' },
        { role: 'user', content: 'we use pnpm, never npm' },
      ],
      responseFormat: { type: 'json', schema: { type: 'object' } },
      maxTokens: 900,
    });
    expect(out).toEqual({
      text: '{"memories":[]}',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 100, outputTokens: 7, costUsd: 0.0012 },
    });
    expect(llm).toMatchObject({
      provider: 'claude-code',
      modelId: 'haiku',
      capabilities: { supportsTools: false, supportsJsonSchema: false },
    });

    const call = await callOf(cli);
    expect(call.stdin).toBe('we use pnpm, never npm');
    const arg = (flag: string) => call.argv[call.argv.indexOf(flag) + 1];
    expect(call.argv[0]).toBe('-p');
    expect(arg('--output-format')).toBe('json');
    expect(arg('--model')).toBe('haiku');
    expect(arg('--tools')).toBe('');
    expect(JSON.parse(arg('--settings')!)).toEqual({ disableAllHooks: true });
    expect(call.argv).toEqual(expect.arrayContaining(['--strict-mcp-config', '--no-session-persistence']));
    expect(arg('--system-prompt')).toMatch(/^You distill memories\.\n\nReply with only JSON[\s\S]*"type":"object"/);
    expect(call.env.STRATA_HOOK_GUARD).toBe('1');
    expect(call.env.CLAUDECODE).toBeUndefined();
    expect(call.env.KEEP_ME).toBe('yes');
    expect(call.env.CLAUDE_CODE_MAX_OUTPUT_TOKENS).toBe('900');
  });

  it('writes a multi-turn exchange (a JSON repair turn) as one labelled prompt', async () => {
    const cli = await fakeCli('turns', print(RESULT));
    await createClaudeCodeLlm({ command: cli, model: 'sonnet' }).doGenerate({
      messages: [
        { role: 'user', content: 'extract' },
        { role: 'assistant', content: 'not json' },
        { role: 'user', content: 'That was not valid JSON. Reply with JSON only.' },
      ],
    });
    const call = await callOf(cli);
    expect(call.argv[call.argv.indexOf('--model') + 1]).toBe('sonnet');
    expect(call.stdin).toMatch(/### User\nextract\n\n### Assistant\nnot json\n\n### User\nThat was not valid JSON/);
  });

  it('a missing CLI is a non-retryable error that says how to install it or choose another provider', async () => {
    const llm = createClaudeCodeLlm({ command: join(dir, 'no-such-claude') });
    const error = await llm.doGenerate({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'PROVIDER_CALL', isRetryable: false });
    expect((error as Error).message).toMatch(/could not be run \(ENOENT\).*npm install -g @anthropic-ai\/claude-code.*llm\.command/s);
  });

  it('output that is not JSON is a typed error quoting what was printed', async () => {
    const cli = await fakeCli('garbage', print('Welcome to Claude Code! <html>'));
    const error = await createClaudeCodeLlm({ command: cli })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_CALL', isRetryable: false });
    expect((error as Error).message).toMatch(/not JSON \("Welcome to Claude Code! <html>"\)/);
    const other = await fakeCli('other-json', print({ hello: 'world' }));
    const e2 = await createClaudeCodeLlm({ command: other })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect((e2 as Error).message).toMatch(/not a Claude Code result/);
  });

  it('a failed call (non-zero exit with an error result) is typed: auth is permanent, overload is retryable', async () => {
    const auth = await fakeCli(
      'auth',
      print({ ...RESULT, subtype: 'success', is_error: true, result: 'Invalid API key · Please run /login', api_error_status: 401 }, 1),
    );
    const e1 = await createClaudeCodeLlm({ command: auth })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(e1).toMatchObject({ code: 'PROVIDER_AUTH', isRetryable: false, statusCode: 401 });
    expect((e1 as Error).message).toMatch(/log in/);

    const busy = await fakeCli('busy', print({ ...RESULT, is_error: true, result: 'API Error: 529 Overloaded', api_error_status: 529 }, 1));
    const e2 = await createClaudeCodeLlm({ command: busy })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(e2).toMatchObject({ code: 'PROVIDER_CALL', isRetryable: true, statusCode: 529 });

    const crash = await fakeCli('crash', `process.stderr.write('Error: something broke inside the CLI\\n'); process.exitCode = 3;`);
    const e3 = await createClaudeCodeLlm({ command: crash })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(e3).toMatchObject({ code: 'PROVIDER_CALL', isRetryable: true });
    expect((e3 as Error).message).toMatch(/exited with status 3 and printed no result: Error: something broke inside the CLI/);
  });

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('kills a CLI that hangs past timeoutMs (and what it started) and throws a retryable TIMEOUT', async () => {
    // The fake starts a grandchild that would outlive it, then hangs.
    const cli = await fakeCli(
      'hang',
      `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); require('fs').writeFileSync(${JSON.stringify(join(dir, 'hang.grandchild'))}, String(c.pid)); setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const error = await createClaudeCodeLlm({ command: cli, timeoutMs: 1_500 })
      .doGenerate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT', isRetryable: true });
    expect(Date.now() - started).toBeLessThan(15_000);
    const { pid } = await callOf(cli);
    const grandchild = Number(await readFile(join(dir, 'hang.grandchild'), 'utf8'));
    await expect.poll(() => alive(pid) || alive(grandchild), { timeout: 5_000 }).toBe(false);
  });

  it('an abort kills the CLI and rejects as an abort (never retried)', async () => {
    const cli = await fakeCli('slow', 'setInterval(() => {}, 1000);');
    const controller = new AbortController();
    const pending = createClaudeCodeLlm({ command: cli }).doGenerate({
      messages: [{ role: 'user', content: 'x' }],
      abortSignal: controller.signal,
    });
    await expect
      .poll(() =>
        readFile(`${cli}.call.json`, 'utf8').then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    await expect.poll(async () => alive((await callOf(cli)).pid), { timeout: 5_000 }).toBe(false);
  });

  it('refuses tool calls it cannot make', async () => {
    const llm = createClaudeCodeLlm({ command: 'claude' });
    await expect(
      llm.doGenerate({
        messages: [{ role: 'user', content: 'x' }],
        tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});
