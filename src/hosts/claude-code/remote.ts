/**
 * Claude Code hooks in remote mode (`STRATA_URL` in the hook's environment): the context comes
 * from the service (the `context` and `recall` operations, as the token's agent), and the
 * transcript is read here (cursors in this machine's home) and shipped to the service's
 * `capture` operation. Injection bookkeeping (what the session already holds) stays here too.
 */
import { basename, dirname, resolve } from 'node:path';
import { formatContextBlock } from '../../core/recall/context-format.js';
import { shouldRecall } from '../../core/recall/gate.js';
import { InvalidArgumentError } from '../../errors/index.js';
import { RemoteOperations } from '../../remote/client.js';
import { remoteIngest } from '../../remote/capture.js';
import type { RemoteOptions } from '../../remote/client.js';
import { contextOutput, PROMPT_RECALL_TOKENS, sessionKeyOf, type HookAnswer } from './context-ops.js';
import { alreadyInjected, InjectionStore } from './injections.js';
import type { HookOpInput } from './payload.js';

export async function runHookRemote(options: {
  home: string;
  input: HookOpInput;
  remote: RemoteOptions;
  env: NodeJS.ProcessEnv;
}): Promise<HookAnswer> {
  const { input, home } = options;
  const ops = await RemoteOperations.connect(options.remote);
  const injections = new InjectionStore({ home });
  if (input.event === 'SessionStart') {
    const fresh = input.source === undefined || ['startup', 'clear', 'compact'].includes(input.source);
    const blocks = await injections.begin({ sessionId: input.sessionId, transcriptPath: input.transcriptPath, fresh });
    const sessionKey = sessionKeyOf(input.transcriptPath, input.sessionId);
    const context = (await ops.run('context', sessionKey ? { sessionKey } : {})).text;
    if (!context || blocks.some((b) => b.includes(context.trim()))) return {};
    await injections.add(input.sessionId, context);
    return { stdout: contextOutput('SessionStart', context) };
  }
  if (input.event === 'UserPromptSubmit') {
    const prompt = input.prompt?.trim() ?? '';
    if (!prompt || !shouldRecall({ text: prompt }).recall) return {};
    const blocks = await injections.begin({ sessionId: input.sessionId, transcriptPath: input.transcriptPath, fresh: false });
    const result = await ops.run('recall', { query: prompt, conversations: false });
    const results = result.results.filter((r) => !alreadyInjected(blocks, r.record.text));
    const block = formatContextBlock({ results, maxTokens: PROMPT_RECALL_TOKENS, now: new Date() });
    if (!block) return {};
    await injections.add(input.sessionId, block);
    return { stdout: contextOutput('UserPromptSubmit', block) };
  }
  if (!input.transcriptPath)
    throw new InvalidArgumentError({
      argument: 'transcript_path',
      message: `${input.event} hook input has no transcript_path: nothing to capture.`,
    });
  const path = resolve(input.transcriptPath);
  const projects = dirname(dirname(path));
  if (basename(projects) !== 'projects')
    throw new InvalidArgumentError({
      argument: 'transcript_path',
      message: `transcript_path ${path} is not <config>/projects/<project>/<session>.jsonl; capture only reads Claude Code's own transcript layout.`,
    });
  const summary = await remoteIngest({
    home,
    ops,
    env: options.env,
    sources: [{ kind: 'claude-code', root: dirname(projects), only: [path] }],
  });
  if (summary.errors.length > 0)
    throw new InvalidArgumentError({
      argument: 'transcript_path',
      message: summary.errors.map((e) => `${e.path}: ${e.message}`).join('; '),
    });
  return {};
}
