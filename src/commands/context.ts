/**
 * The commander adapter over the engine, shared by the `strata` binary (src/cli) and the commands
 * OpenClaw mounts under `openclaw strata` (src/hosts/openclaw/cli.ts). It knows no host: commands
 * resolve their caller with the one resolver and run the operations table like every host does.
 */
import type { Command } from 'commander';
import { assertAgentId, resolveCaller, describeCaller, type Caller } from '../core/caller.js';
import type { OperationsRunner } from '../core/ops/index.js';
import { loadConfig } from '../config/load.js';
import type { StrataConfig } from '../config/schema.js';
import { InvalidArgumentError, StrataError } from '../errors/index.js';
import { RemoteOperations } from '../remote/client.js';
import { remoteSettings, resolveRemote } from '../remote/settings.js';
import { residentOperations, type ResidentOperations } from '../resident/operations.js';
import type { Strata, StrataOpenOptions } from '../strata.js';

/** Options every command accepts (declared once on the root program). */
export interface GlobalOptions {
  home?: string;
  json?: boolean;
  verbose?: boolean;
  scope?: string[];
  agent?: string;
  allScopes?: boolean;
  /** A `strata serve` service to use instead of the local store (else $STRATA_URL, else config `remote.url`). */
  url?: string;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Declares the global options on a root command (`strata`, `openclaw strata`), with host defaults. */
export function addGlobalOptions(cmd: Command, defaults: { home?: string; agent?: string; url?: string } = {}): Command {
  return cmd
    .option('--home <dir>', 'Strata home (default $STRATA_HOME, else ~/.strata)', defaults.home)
    .option(
      '--scope <scope>',
      'scope to read/write (repeatable): global, agent:<id>, user:<id>, project:<id>, session:<key>, custom:<name>',
      collect,
    )
    .option(
      '--agent <id>',
      'act as this agent (default $STRATA_AGENT_ID, else scopes.defaultAgent): reads global + agent:<id> + its grants, writes to agent:<id>',
      defaults.agent,
    )
    .option('--all-scopes', "owner mode: read every scope and every agent's conversations (default: the agent's scopes, or global only)")
    .option(
      '--url <url>',
      'use the Strata service at this URL instead of the local store (default $STRATA_URL, else config remote.url; token from $STRATA_TOKEN or the variable remote.tokenEnv names)',
      defaults.url,
    )
    .option('--json', 'stable machine-readable output')
    .option('--verbose', 'print stack traces on errors');
}

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals<GlobalOptions>();
}

export async function openStrata(cmd: Command, extra: Omit<StrataOpenOptions, 'home'> = {}): Promise<Strata> {
  // Loaded here, not at startup: a command answered by the resident never loads the engine (LanceDB, the model runtime).
  const { Strata } = await import('../strata.js');
  return Strata.open({ home: globals(cmd).home, ...extra });
}

export async function withStrata<T>(
  cmd: Command,
  fn: (strata: Strata) => Promise<T>,
  extra: Omit<StrataOpenOptions, 'home'> = {},
): Promise<T> {
  const strata = await openStrata(cmd, extra);
  try {
    return await fn(strata);
  } finally {
    await strata.close();
  }
}

/** Who the command acts as: `--agent` > `STRATA_AGENT_ID` > `scopes.defaultAgent`, plus `--scope` and `--all-scopes`. */
export function callerOf(strata: Strata, g: GlobalOptions): Caller {
  return resolveCaller({ config: strata.config, agentId: g.agent, scopes: g.scope, allScopes: g.allScopes });
}

/**
 * `--agent` where it names whose transcripts to capture or distil (not who is asking): validated like
 * an identity, so an id that cannot form its scope is refused instead of being filed anywhere.
 */
export function agentFlag(g: GlobalOptions): string | undefined {
  return g.agent === undefined ? undefined : assertAgentId(g.agent, '--agent');
}

/** A "not here" answer names who asked, so the fix (another --agent, --scope or --all-scopes) is obvious. */
function withCallerHint(error: unknown, caller: Caller): unknown {
  if (!StrataError.isInstance(error) || caller.owner || (error.code !== 'NOT_FOUND' && error.code !== 'FORBIDDEN_SCOPE')) return error;
  return new StrataError({
    code: error.code,
    message: `${error.message} This command acts as ${describeCaller(caller)}: pass --agent <id> or --scope <scope> to read elsewhere, or --all-scopes for every scope.`,
    cause: error,
    details: error.details,
  });
}

/**
 * The remote service this command should use (`--url` > `STRATA_URL` > config `remote.url`), or
 * null. There the token decides who the caller is: `--agent` naming another agent, `--scope` and
 * `--all-scopes` are refused rather than silently ignored.
 */
export async function remoteOps(cmd: Command, loaded?: { config: StrataConfig }): Promise<RemoteOperations | null> {
  const g = globals(cmd);
  // The home's config is read even when --url or STRATA_URL names the service: remote.tokenEnv still applies.
  const settings = loaded ? remoteSettings({ url: g.url, config: loaded.config }) : await resolveRemote({ url: g.url, home: g.home });
  if (!settings) return null;
  if (g.allScopes || (g.scope ?? []).length > 0)
    throw new InvalidArgumentError({
      argument: g.allScopes ? '--all-scopes' : '--scope',
      message: `Against a Strata service (${settings.url}) the token decides the scopes: make a narrower token (strata tokens create --scopes ...) or an owner token instead of ${g.allScopes ? '--all-scopes' : '--scope'}.`,
    });
  const ops = await RemoteOperations.connect(settings);
  if (g.agent !== undefined && g.agent !== ops.caller.agentId)
    throw new InvalidArgumentError({
      argument: '--agent',
      message: `This token acts as ${describeCaller(ops.caller)}; --agent ${g.agent} cannot change that against a service (use that agent's token).`,
    });
  return ops;
}

/** What a command may ask besides the operations. */
export interface OpsSession {
  /** The local home; empty when remote. */
  home: string;
  /** The Strata service's URL in remote mode. */
  service?: string;
  /** Memories per scope (counts only), for the "more in other scopes" hint. */
  countsByScope(): Promise<Record<string, number>>;
}

/**
 * Runs `fn` with the command's view of the engine (history actor `cli`): the service's when remote
 * (`--url`, `STRATA_URL`, config `remote.url`). Locally, commands that run
 * operations of the table (memories, recall/search, conversations, history, stats, persona and
 * scenes) go through the home's resident Strata process when one is running, so they share its
 * warm engine with the hooks and the MCP server; the CLI never starts one. Without a resident, in
 * owner mode (`--all-scopes`), or with `STRATA_RESIDENT=0`, the engine opens in this process.
 * Commands that drive the engine directly (capture, distill, import, export, reembed, optimize,
 * doctor, worker, journal, summarize) use withStrata and always run here: long jobs that need the
 * engine to themselves, not requests to queue behind a prompt's recall.
 */
export async function withOps<T>(cmd: Command, fn: (ops: OperationsRunner, session: OpsSession) => Promise<T>): Promise<T> {
  const g = globals(cmd);
  const loaded = await loadConfig({ home: g.home });
  // Remote mode: the service's operations as the token's agent; the token fixes the scopes, so no hint.
  const remote = await remoteOps(cmd, loaded);
  if (remote) {
    try {
      return await fn(remote, { home: '', service: remote.url, countsByScope: async () => ({}) });
    } catch (error) {
      throw withCallerHint(error, remote.caller);
    }
  }
  let opened: Promise<Strata> | undefined;
  const engine = (): Promise<Strata> => (opened ??= openStrata(cmd));
  const ops: ResidentOperations = residentOperations({
    home: loaded.home,
    config: loaded.config,
    agentId: g.agent,
    operatorScopes: g.scope,
    allScopes: g.allScopes,
    actor: 'cli',
    enabled: process.env.STRATA_RESIDENT !== '0',
    inProcess: async () => (await engine()).as(ops.caller, { actor: 'cli' }),
    onFallback: g.verbose ? (reason) => process.stderr.write(`strata: running in this process (${reason})\n`) : undefined,
  });
  const session: OpsSession = {
    home: loaded.home,
    countsByScope: () => ops.countsByScope(async () => (await (await engine()).stats()).byScope),
  };
  try {
    return await fn(ops, session);
  } catch (error) {
    throw withCallerHint(error, ops.caller);
  } finally {
    if (opened) await (await opened.catch(() => undefined))?.close();
  }
}
