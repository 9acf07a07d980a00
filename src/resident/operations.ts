/**
 * The operations table run by the home's resident Strata process, for hosts that start once and
 * call many times (`strata mcp`) and for one-shot CLI commands: a round trip instead of opening
 * LanceDB and loading the embedding model, and one engine for hooks, MCP and CLI (a write through
 * one is what the next hook recall reads).
 *
 *   const ops = new ResidentOperations({ home, config, caller, actor: 'mcp', inProcess: () => ... });
 *   await ops.run('recall', { query });
 *
 * Same interface and same behaviour as `strata.as(caller)`: input is validated here with the same
 * limits (a bad input fails the same way without a round trip), and an error raised in the resident
 * comes back as the same typed error (code, message, details), so tool errors and exit codes do not
 * depend on where the operation ran. It runs in this process instead (`inProcess`, opened on
 * first need) when:
 *   - no resident runs and none may be started (the CLI never starts one; `strata mcp` does);
 *   - the caller is in owner mode (`--all-scopes`): the socket never grants it;
 *   - the resident resolves the caller differently or runs with another config (RESIDENT_MISMATCH);
 *   - the operation streams its result (`export`).
 */
import { resolveCaller, type Caller } from '../core/caller.js';
import { OperationShapes, type OperationsView, type OpName, type OpResult, type OpsConfig, type RunOptions } from '../core/ops/index.js';
import { InvalidArgumentError, StrataError, type StrataErrorCode } from '../errors/index.js';
import { callResident, ResidentCallError, ResidentTimeoutError, ResidentUnavailableError, type ResidentStartSpec } from './client.js';
import { configFingerprint } from './fingerprint.js';
import type { ResidentCaller } from './protocol.js';
import { residentStamp } from './stamp.js';

/** Operations whose result is a stream (an async iterable): they cannot cross the socket. */
const STREAMING = new Set<OpName>(['export']);
/** Answers that mean "this resident cannot serve this caller": use the engine in this process from now on. */
const NOT_FOR_US = new Set(['RESIDENT_MISMATCH', 'RESIDENT_FORBIDDEN', 'UNKNOWN_OPERATION']);
/** Codes rebuilt as InvalidArgumentError (usage errors: exit code 2, HTTP 4xx). */
const ARGUMENT_CODES: ReadonlySet<string> = new Set<StrataErrorCode>([
  'INVALID_ARGUMENT',
  'INVALID_SCOPE',
  'FORBIDDEN_SCOPE',
  'INVALID_AGENT_ID',
]);
const STRATA_CODES: ReadonlySet<string> = new Set<StrataErrorCode>([
  'INVALID_ARGUMENT',
  'INVALID_SCOPE',
  'FORBIDDEN_SCOPE',
  'INVALID_AGENT_ID',
  'CONFIG_INVALID',
  'CONFIG_UNREADABLE',
  'STORAGE',
  'STORE_LOCKED',
  'EMBEDDER_MISMATCH',
  'NOT_FOUND',
  'PROVIDER_CALL',
  'PROVIDER_AUTH',
  'PROVIDER_MODEL_NOT_FOUND',
  'PROVIDER_DIMENSION_MISMATCH',
  'RETRY_EXHAUSTED',
  'ABORTED',
  'TIMEOUT',
  'IMPORT_INVALID',
  'UNSUPPORTED',
]);
/** A resident operation gets this long (recall with a cold model, a large list) before the caller gives up. */
const DEFAULT_DEADLINE_MS = 60_000;

/** The error the operation would have thrown in this process, from what the resident sent back. */
export function residentErrorToTyped(error: ResidentCallError): Error {
  const details = error.details;
  if (ARGUMENT_CODES.has(error.code)) {
    const argument = typeof details?.argument === 'string' ? details.argument : 'input';
    return new InvalidArgumentError({ argument, message: error.message, code: error.code as StrataErrorCode });
  }
  if (STRATA_CODES.has(error.code)) return new StrataError({ code: error.code as StrataErrorCode, message: error.message, details });
  // An untyped failure: in this process it would have been a plain Error (shown as INTERNAL).
  return new Error(error.message);
}

export interface ResidentOperationsOptions {
  home: string;
  /** The config this process loaded (limits for validation, scopes for the caller). */
  config: OpsConfig & { scopes: { defaultAgent?: string; agentGrants: Record<string, string[]> } };
  caller: Caller;
  /** The operator's `--scope` values the caller was resolved with: the resident resolves the same caller from them. */
  operatorScopes?: readonly string[];
  actor: string;
  /** The same operations on an engine in this process (opened on first need). */
  inProcess: () => Promise<OperationsView>;
  /** Start a resident when none runs (long-lived hosts); omit to use only a running one. */
  start?: ResidentStartSpec;
  /** False: always in this process (`--no-resident`, `STRATA_RESIDENT=0`). */
  enabled?: boolean;
  deadlineMs?: number;
  stamp?: string;
  /** Told once why operations run in this process although a resident was tried. */
  onFallback?: (reason: string) => void;
}

export class ResidentOperations extends OperationShapes {
  /** Where the last operation ran (tests and `--verbose` read it). */
  lastServedBy: 'resident' | 'in-process' | undefined;
  private readonly options: ResidentOperationsOptions;
  private readonly stamp: string;
  private readonly fingerprint: string;
  private readonly wire: ResidentCaller;
  private local: Promise<OperationsView> | undefined;
  /** Set once the resident refused this caller: no more round trips. */
  private refused = false;

  constructor(options: ResidentOperationsOptions) {
    super({ config: options.config, caller: options.caller, actor: options.actor });
    this.options = options;
    this.stamp = options.stamp ?? residentStamp();
    this.fingerprint = configFingerprint(options.config);
    this.wire = { agentId: options.caller.agentId, ...(options.operatorScopes?.length ? { scopes: [...options.operatorScopes] } : {}) };
  }

  /** Whether this name runs in the resident (otherwise in this process). */
  private remote(name: OpName): boolean {
    return this.options.enabled !== false && !this.refused && !this.caller.owner && !STREAMING.has(name);
  }

  private inProcess(): Promise<OperationsView> {
    this.local ??= this.options.inProcess();
    return this.local;
  }

  private fallBack(reason: string, permanent: boolean): void {
    if (permanent) this.refused = true;
    this.options.onFallback?.(reason);
  }

  override async run<N extends OpName>(name: N, input: unknown = {}, options: RunOptions = {}): Promise<OpResult<N>> {
    // Here first: a bad input or a forbidden operation fails without a round trip, exactly as in-process.
    this.parse(name, input);
    this.assertAccess(name);
    if (this.remote(name)) {
      try {
        const { result } = await callResident({
          home: this.options.home,
          stamp: this.stamp,
          op: 'ops.run',
          caller: this.wire,
          input: {
            name,
            input,
            actor: this.actor,
            expect: { scopes: this.caller.scopes, writeScope: this.caller.writeScope },
            config: this.fingerprint,
          },
          deadline: Date.now() + (this.options.deadlineMs ?? DEFAULT_DEADLINE_MS),
          start: this.options.start,
        });
        this.lastServedBy = 'resident';
        return result as OpResult<N>;
      } catch (error) {
        if (error instanceof ResidentUnavailableError) this.fallBack(error.message, false);
        else if (error instanceof ResidentCallError && NOT_FOR_US.has(error.code)) this.fallBack(`[${error.code}] ${error.message}`, true);
        else if (error instanceof ResidentCallError) throw residentErrorToTyped(error);
        // The operation may still be running there: never run it a second time here.
        else if (error instanceof ResidentTimeoutError) throw new StrataError({ code: 'TIMEOUT', message: error.message, cause: error });
        else throw error;
      }
    }
    const local = await this.inProcess();
    const result = await local.run(name, input, options);
    this.lastServedBy = 'in-process';
    return result;
  }

  /** Memories per scope (counts only), from the resident or the engine here; for the CLI's scope hint. */
  async countsByScope(fallback: () => Promise<Record<string, number>>): Promise<Record<string, number>> {
    // Only from a resident that just served this caller (same config, so the same store).
    if (this.lastServedBy === 'resident') {
      try {
        const { result } = await callResident({
          home: this.options.home,
          stamp: this.stamp,
          op: 'store.byScope',
          deadline: Date.now() + (this.options.deadlineMs ?? DEFAULT_DEADLINE_MS),
        });
        return result as Record<string, number>;
      } catch {
        // the hint is best effort; the engine here answers it
      }
    }
    return fallback();
  }
}

/**
 * Operations for a host process: resolves the caller from the host's identity (flag, config,
 * environment) with the one resolver and returns the resident-backed view of it.
 */
export function residentOperations(
  options: Omit<ResidentOperationsOptions, 'caller'> & { agentId?: string | null; allScopes?: boolean },
): ResidentOperations {
  const caller = resolveCaller({
    config: options.config,
    agentId: options.agentId,
    scopes: options.operatorScopes,
    allScopes: options.allScopes,
  });
  return new ResidentOperations({ ...options, caller });
}
