import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { ProviderCallError, StrataError } from '../../errors/index.js';
import { abortErrorFrom } from '../../provider-utils/retry.js';
import type { LlmGenerateOptions, LlmGenerateResult, LlmV1 } from '../../spec/llm.js';
import { cliResultSchema, finishReasonOf, inputTokensOf, promptOf, type CliResult } from './cli-result.js';

/**
 * The user's own Claude Code as Strata's LLM: `claude -p --output-format json` run headless, the
 * prompt on stdin. Claude Code users need no key or endpoint of their own for distillation; the CLI
 * brings its login (subscription or API key) and its settings (proxies, base URL).
 *
 * The child must never feed Strata: it runs with no tools, no MCP servers, no hooks
 * (`disableAllHooks`), no session file (`--no-session-persistence`), in a temp directory (no
 * project CLAUDE.md or project settings), and with `STRATA_HOOK_GUARD=1`, which Strata's hook
 * entry checks before anything else, so even a hook that still fires neither captures nor injects.
 * One attempt per call; the client in `src/core/llm` retries.
 */
export interface ClaudeCodeSettings {
  /** The CLI to run: a name on PATH or a path. Default `claude`. */
  command?: string;
  /** A model alias or full name. Default `haiku` (cheap and fast; distillation needs no more). */
  model?: string;
  /** Kills the child after this long. Default 180 s (a cold CLI start takes a few seconds). */
  timeoutMs?: number;
  /** Environment of the child. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Working directory of the child. Default the OS temp directory. */
  cwd?: string;
  /** Largest stdout kept, in bytes. Default 8 MiB. */
  maxOutputBytes?: number;
}

export const DEFAULT_CLAUDE_CODE_MODEL = 'haiku';
const DEFAULT_TIMEOUT_MS = 180_000;
/** Set on the child; `hook-entry.ts` exits at once when it is set (src/hosts/claude-code/background.ts). */
export const CLAUDE_CODE_GUARD_ENV = 'STRATA_HOOK_GUARD';
/** What marks a process as running inside a Claude Code session; the child is a session of its own. */
const SESSION_MARKERS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SSE_PORT'];
const NO_HOOKS = JSON.stringify({ disableAllHooks: true });
const KILL_GRACE_MS = 2_000;

interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function createClaudeCodeLlm(settings: ClaudeCodeSettings = {}): LlmV1 {
  const command = settings.command ?? 'claude';
  const model = settings.model ?? DEFAULT_CLAUDE_CODE_MODEL;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const where = `claude-code:${command}`;
  const description = `LLM claude-code:${model} (${command} -p)`;

  function run(args: string[], input: string, env: NodeJS.ProcessEnv, abortSignal: AbortSignal | undefined): Promise<RunOutcome> {
    return new Promise((resolve, reject) => {
      if (abortSignal?.aborted) return reject(abortErrorFrom(abortSignal));
      // Its own process group, so a timeout or an abort takes down whatever the CLI started too.
      const child = spawn(command, args, {
        cwd: settings.cwd ?? tmpdir(),
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
      });
      const limit = settings.maxOutputBytes ?? 8 * 1024 * 1024;
      let stdout = '';
      let stderr = '';
      let ended: 'timeout' | 'abort' | undefined;
      const kill = (signal: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
          else child.kill(signal);
        } catch {
          // Already gone.
        }
      };
      const stop = (why: 'timeout' | 'abort') => {
        if (ended) return;
        ended = why;
        kill('SIGTERM');
        setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS).unref();
      };
      const timer = setTimeout(() => stop('timeout'), timeoutMs);
      const onAbort = () => stop('abort');
      abortSignal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        abortSignal?.removeEventListener('abort', onAbort);
      };
      child.stdout.on('data', (d: Buffer) => {
        if (stdout.length < limit) stdout += d.toString('utf8');
      });
      child.stderr.on('data', (d: Buffer) => {
        if (stderr.length < 64 * 1024) stderr += d.toString('utf8');
      });
      // EPIPE when the CLI exits before reading its prompt: the exit status tells the story.
      child.stdin.on('error', () => undefined);
      child.on('error', (error: NodeJS.ErrnoException) => {
        done();
        if (error.code === 'ENOENT' || error.code === 'EACCES') {
          reject(
            new ProviderCallError({
              url: where,
              isRetryable: false,
              cause: error,
              message:
                `The Claude Code CLI \`${command}\` could not be run (${error.code}). Install Claude Code ` +
                '(npm install -g @anthropic-ai/claude-code) and log in once with `claude`, set llm.command to the ' +
                'full path of the claude executable, or configure another llm provider (openai, anthropic).',
            }),
          );
        } else reject(new ProviderCallError({ url: where, cause: error, message: `${description}: could not start: ${error.message}` }));
      });
      child.on('close', (code, signal) => {
        done();
        if (ended === 'abort') return reject(abortErrorFrom(abortSignal!));
        if (ended === 'timeout') {
          return reject(
            new ProviderCallError({
              code: 'TIMEOUT',
              url: where,
              isRetryable: true,
              message: `${description} did not answer within ${timeoutMs} ms and was stopped; raise llm.timeoutMs if the CLI is slow to start.`,
            }),
          );
        }
        resolve({ code, signal, stdout, stderr });
      });
      child.stdin.end(input);
    });
  }

  return {
    specificationVersion: 'v1',
    provider: 'claude-code',
    modelId: model,
    capabilities: { supportsJsonSchema: false, supportsTools: false },
    async doGenerate(options: LlmGenerateOptions): Promise<LlmGenerateResult> {
      if (options.tools?.length) {
        throw new StrataError({
          code: 'UNSUPPORTED',
          message: `${description} runs without tools; the scene organiser needs an llm with tool calls (openai or anthropic).`,
        });
      }
      const system = options.messages.filter((m) => m.role === 'system').map((m) => m.content);
      const format = options.responseFormat;
      if (format) {
        system.push(
          'Reply with only JSON, with no prose and no code fences.' +
            (format.schema ? ` It must match this JSON schema: ${JSON.stringify(format.schema)}` : ''),
        );
      }
      const args = [
        '-p',
        '--output-format',
        'json',
        '--model',
        model,
        '--tools',
        '',
        '--strict-mcp-config',
        '--settings',
        NO_HOOKS,
        '--setting-sources',
        'user',
        '--no-session-persistence',
        '--disable-slash-commands',
      ];
      if (system.length) args.push('--system-prompt', system.join('\n\n'));
      const env: NodeJS.ProcessEnv = { ...(settings.env ?? process.env), [CLAUDE_CODE_GUARD_ENV]: '1' };
      for (const marker of SESSION_MARKERS) delete env[marker];
      if (options.maxTokens !== undefined) env.CLAUDE_CODE_MAX_OUTPUT_TOKENS = String(options.maxTokens);

      const out = await run(args, promptOf(options.messages), env, options.abortSignal);
      const result = parseResult(out, description, where);
      if (result.is_error || out.code !== 0) throw callError(result, out, description, where);
      return {
        text: result.result ?? '',
        toolCalls: [],
        finishReason: finishReasonOf(result.stop_reason),
        usage: {
          inputTokens: inputTokensOf(result),
          outputTokens: result.usage?.output_tokens ?? 0,
          ...(result.total_cost_usd !== undefined ? { costUsd: result.total_cost_usd } : {}),
        },
      };
    },
  };
}

const tail = (text: string) => text.trim().split('\n').slice(-5).join('\n').slice(-600);

/** The result object of a run, or an error saying what came out instead. */
function parseResult(out: RunOutcome, description: string, where: string): CliResult {
  const text = out.stdout.trim();
  const exit = out.signal ? `was killed by ${out.signal}` : `exited with status ${out.code}`;
  if (text === '') {
    throw new ProviderCallError({
      url: where,
      isRetryable: out.code !== 0,
      message: `${description} ${exit} and printed no result${out.stderr.trim() ? `: ${tail(out.stderr)}` : ''}. Run \`claude -p hello\` in a terminal to see whether the CLI works and is logged in.`,
    });
  }
  // Older or chattier CLIs may print warnings first: the result is the last line that is JSON.
  const line =
    text
      .split('\n')
      .reverse()
      .find((l) => l.trimStart().startsWith('{')) ?? text;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (error) {
    throw new ProviderCallError({
      url: where,
      isRetryable: false,
      cause: error,
      message: `${description} ${exit} and printed something that is not JSON (${JSON.stringify(text.slice(0, 200))}). Is llm.command the Claude Code CLI, at a version that has --output-format json?`,
    });
  }
  const parsed = cliResultSchema.safeParse(json);
  if (!parsed.success) {
    throw new ProviderCallError({
      url: where,
      isRetryable: false,
      cause: parsed.error,
      message: `${description} printed JSON that is not a Claude Code result (${JSON.stringify(line.slice(0, 200))}); check llm.command and the CLI version.`,
    });
  }
  return parsed.data;
}

const AUTH = /\b(?:invalid api key|not logged in|please run \/login|authentication|unauthori[sz]ed|oauth token)\b/i;

function callError(result: CliResult, out: RunOutcome, description: string, where: string): ProviderCallError {
  const said = result.result?.trim() || tail(out.stderr) || result.subtype;
  const status = result.api_error_status ?? undefined;
  if (status === 401 || status === 403 || AUTH.test(said)) {
    return new ProviderCallError({
      code: 'PROVIDER_AUTH',
      url: where,
      statusCode: status,
      isRetryable: false,
      message: `${description} is not logged in or its key was refused: ${said}. Run \`claude\` once and log in (or set ANTHROPIC_API_KEY), then try again.`,
    });
  }
  return new ProviderCallError({
    url: where,
    statusCode: status,
    // Without a status (a crash, a budget stop) one more attempt is cheap and often enough.
    isRetryable: status === undefined || status === 408 || status === 409 || status === 429 || status >= 500,
    message: `${description} failed (${result.subtype}, exit ${out.code ?? out.signal}): ${said}`,
  });
}
