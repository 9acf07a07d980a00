/**
 * One Claude Code hook call, as a small process: read the hook input, ask the resident Strata
 * process of the home (starting it on the first call), print the protocol JSON. Only when no
 * resident can run does the hook load the engine itself (in-process.ts). Failures never fail the
 * host: exit 0, one stderr line, and an entry in `<home>/logs/hooks.jsonl` for `strata doctor`.
 *
 * Node built-ins only at module load: a warm UserPromptSubmit is this file, a socket round trip
 * and nothing else.
 */
import { callResident, ResidentCallError, ResidentTimeoutError, ResidentUnavailableError } from '../../resident/client.js';
import { resolveHomeLight } from '../../resident/protocol.js';
import { residentCommand, residentStamp } from '../../resident/stamp.js';
import { HOOK_GUARD_ENV, isGuarded } from './background.js';
import { appendHookError } from '../../resident/hook-log.js';
import { remoteConfigured } from '../../remote/configured.js';
import { HOOK_OPS, isHookEvent, parseHookPayload, type HookOpInput } from './payload.js';
import { HOOK_EVENTS, type HookEvent } from './settings.js';

/**
 * How long each event may take before the hook gives up (ms): below the timeouts `strata install`
 * writes (settings.ts), so a slow hook logs its timeout instead of being killed silently.
 */
const DEADLINES: Record<HookEvent, number> = {
  SessionStart: 12_000,
  UserPromptSubmit: 12_000,
  PreCompact: 25_000,
  Stop: 25_000,
  SessionEnd: 8_000,
};

export interface HookArgs {
  event?: string;
  home?: string;
  agent?: string;
  distill: boolean;
  verbose: boolean;
  /** Run in this process even when a resident could (`--no-resident`, or STRATA_RESIDENT=0). */
  resident: boolean;
}

/** `[--home h] [--agent a] hook <Event> [--no-distill] [--no-resident] [--verbose]`, global options anywhere. */
export function parseHookArgs(argv: string[]): HookArgs {
  const out: HookArgs = { distill: true, verbose: false, resident: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--home') out.home = argv[++i];
    else if (arg?.startsWith('--home=')) out.home = arg.slice('--home='.length);
    else if (arg === '--agent') out.agent = argv[++i];
    else if (arg?.startsWith('--agent=')) out.agent = arg.slice('--agent='.length);
    else if (arg === '--no-distill') out.distill = false;
    else if (arg === '--no-resident') out.resident = false;
    else if (arg === '--verbose') out.verbose = true;
    else if (arg === 'hook' && out.event === undefined) out.event = argv[++i];
  }
  return out;
}

/**
 * `--agent`, else this hook's `$STRATA_AGENT_ID`; undefined leaves it to the caller resolver
 * (`scopes.defaultAgent`, else `claude-code`). Sent with every request: the resident serves hooks
 * of any agent and has no identity of its own.
 */
export function hookAgentId(options: { agent?: string; env: NodeJS.ProcessEnv }): string | undefined {
  return options.agent?.trim() || options.env.STRATA_AGENT_ID?.trim() || undefined;
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export interface HookIo {
  env: NodeJS.ProcessEnv;
  readInput: () => Promise<string>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function errorParts(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown };
  return { code: typeof e?.code === 'string' ? e.code : 'INTERNAL', message: typeof e?.message === 'string' ? e.message : String(error) };
}

/** SessionStart when memory is broken: the model and the user are told, instead of silence. */
function unavailableOutput(code: string, message: string): string {
  const why = `[${code}] ${message.replace(/\s+/g, ' ').trim()}`;
  return JSON.stringify({
    systemMessage: `Strata memory is not working: ${why} Run \`strata doctor\`.`,
    hookSpecificOutput: {
      hookEventName: 'SessionStart',
      additionalContext: [
        '<strata-status>',
        `Strata long-term memory is unavailable in this session: ${why}`,
        'No memories were loaded, and this session may not be remembered. If the user relies on earlier sessions, say so and suggest running `strata doctor`.',
        '</strata-status>',
      ].join('\n'),
    },
  });
}

export async function runHook(args: HookArgs, io: HookIo): Promise<void> {
  const { env } = io;
  // Checked before anything else: a hook fired by Strata's own child processes must do nothing.
  if (isGuarded(env)) return;
  const event = args.event ?? '';
  const home = resolveHomeLight({ home: args.home, env });
  const note = (message: string) => io.stderr(`strata hook ${event}: ${message.replace(/\s+/g, ' ').trim()}\n`);
  if (!isHookEvent(event)) return note(`unknown event; expected one of ${HOOK_EVENTS.join(', ')}.`);
  let sessionId: string | undefined;
  try {
    const payload = parseHookPayload(await io.readInput());
    sessionId = payload.sessionId;
    if (event === 'UserPromptSubmit' && !payload.prompt?.trim()) return;
    const input: HookOpInput = {
      event,
      sessionId,
      transcriptPath: payload.transcriptPath,
      source: payload.source,
      prompt: payload.prompt,
      distill: args.distill,
    };
    const agentId = hookAgentId({ agent: args.agent, env });
    const childEnv: NodeJS.ProcessEnv = { ...env, [HOOK_GUARD_ENV]: '1' };
    // The resident outlives this hook and serves every agent: it must not inherit this hook's identity.
    const residentEnv: NodeJS.ProcessEnv = { ...childEnv };
    delete residentEnv.STRATA_AGENT_ID;
    const deadline = Date.now() + DEADLINES[event];
    let answer: { stdout?: string } | undefined;
    // Remote mode (STRATA_URL, or config remote.url): the service answers (as the token's agent) and capture
    // ships what this machine reads. Settings resolve as on every host: the config's remote.tokenEnv applies.
    if (remoteConfigured({ home, env })) {
      const [{ runHookRemote }, { resolveRemote }] = await Promise.all([import('./remote.js'), import('../../remote/settings.js')]);
      const remote = await resolveRemote({ home, env });
      if (remote) answer = await runHookRemote({ home, input, env: childEnv, remote });
    }
    if (!answer && args.resident && env.STRATA_RESIDENT !== '0') {
      const stamp = residentStamp();
      try {
        const call = await callResident({
          home,
          stamp,
          op: HOOK_OPS[event],
          caller: { agentId },
          input,
          deadline,
          start: { ...residentCommand({ home, stamp }), env: residentEnv },
        });
        answer = call.result as { stdout?: string };
        if (args.verbose) note(`answered by the resident Strata process${call.started ? ' (started now)' : ''}`);
      } catch (error) {
        if (!(error instanceof ResidentUnavailableError)) throw error;
        note(`${error.message}; running in this process`);
      }
    }
    if (!answer) {
      const { runHookInProcess } = await import('./in-process.js');
      answer = await runHookInProcess({ home, agentId, input, env: childEnv });
    }
    if (answer?.stdout) io.stdout(answer.stdout + '\n');
  } catch (error) {
    const { code, message } = errorParts(error);
    const where = error instanceof ResidentCallError || error instanceof ResidentTimeoutError ? 'resident' : 'hook';
    appendHookError(home, { event, sessionId, code, message, where });
    note(`[${code}] ${message}`);
    if (event === 'SessionStart') io.stdout(unavailableOutput(code, message) + '\n');
  }
}
