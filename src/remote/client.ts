/**
 * The operations of a remote Strata service (`strata serve`) behind the same `run(name, input)`
 * hosts call on a local engine, so a host pointed at `STRATA_URL` stays as thin as a local one.
 * One attempt per call; reads (access `read`) go through the one retry layer, writes never (a
 * remember resent after a lost answer could run twice). The service's error codes come back as
 * typed errors with the same code, so hosts print `error [CODE]: ...` as they would locally.
 */
import type { Caller } from '../core/caller.js';
import {
  DEFAULT_OPS_CONFIG,
  limitsOf,
  OPERATIONS,
  operationJsonSchema,
  resultForModel,
  resultText,
  type OpLimits,
  type OperationsRunner,
  type OpName,
  type OpResult,
  type RunOptions,
} from '../core/ops/index.js';
import { InvalidArgumentError, StrataError, type StrataErrorCode } from '../errors/index.js';
import { abortErrorFrom, retryWithBackoff } from '../provider-utils/retry.js';

export interface RemoteOptions {
  /** Base URL of the service, e.g. `http://memory.internal:7777` (the API is under /api/v1). */
  url: string;
  /** The bearer token (from `STRATA_TOKEN` or the variable `remote.tokenEnv` names; never from a file). */
  token?: string;
  /** The variable the token came from, named in a 401's message. Default `STRATA_TOKEN`. */
  tokenEnv?: string;
  /** Per-call time limit. Default 30 s. */
  timeoutMs?: number;
  /** Retries of a read on 429/502/503/504 or a failed connection. Default 2. */
  maxRetries?: number;
  fetch?: typeof fetch;
}

export type { OperationsRunner };

const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Writes the service makes idempotent (a resent capture batch adds nothing), so they may be retried too. */
const IDEMPOTENT_WRITES: ReadonlySet<OpName> = new Set(['capture']);

export function normalizeServiceUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidArgumentError({ argument: '--url', message: `Not a URL: ${JSON.stringify(url)} (expected http(s)://host:port).` });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InvalidArgumentError({ argument: '--url', message: `The service URL must be http(s): ${url}.` });
  return parsed.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

export class RemoteOperations implements OperationsRunner {
  readonly url: string;
  readonly caller: Caller;
  /** The default limits: the service validates every input against its own, so these only size pages. */
  readonly limits: OpLimits = limitsOf(DEFAULT_OPS_CONFIG);
  private readonly options: RemoteOptions;

  private constructor(options: RemoteOptions, url: string, caller: Caller) {
    this.options = options;
    this.url = url;
    this.caller = caller;
  }

  /** Connects and learns who the token acts as (whoami), so hosts can show and use the caller. */
  static async connect(options: RemoteOptions): Promise<RemoteOperations> {
    const url = normalizeServiceUrl(options.url);
    const who = (await call(options, url, 'whoami', {}, {}, true)) as {
      agent: string | null;
      scopes: string[];
      writeScope: string;
      owner: boolean;
    };
    return new RemoteOperations(options, url, { agentId: who.agent, scopes: who.scopes, writeScope: who.writeScope, owner: who.owner });
  }

  async run<N extends OpName>(name: N, input: unknown = {}, options: RunOptions = {}): Promise<OpResult<N>> {
    return (await call(
      this.options,
      this.url,
      name,
      input,
      options,
      OPERATIONS[name].access === 'read' || IDEMPOTENT_WRITES.has(name),
    )) as OpResult<N>;
  }

  jsonSchema(name: OpName): Record<string, unknown> {
    return operationJsonSchema(name, { limits: this.limits, caller: this.caller });
  }

  forModel<N extends OpName>(name: N, result: OpResult<N>): unknown {
    return resultForModel(name, result);
  }

  text<N extends OpName>(name: N, result: OpResult<N>): string {
    return resultText(name, result);
  }

  /** Posts to another route of the API (capture), with the same errors; `retry` only for idempotent calls. */
  post(path: string, body: unknown, options: RunOptions & { retry?: boolean } = {}): Promise<unknown> {
    return request(this.options, `${this.url}/api/v1${path}`, body, options, options.retry === true);
  }
}

function call(options: RemoteOptions, url: string, name: OpName, input: unknown, run: RunOptions, idempotent: boolean): Promise<unknown> {
  return request(options, `${url}/api/v1/ops/${name}`, input ?? {}, run, idempotent).then((body) => (body as { result: unknown }).result);
}

async function request(options: RemoteOptions, url: string, body: unknown, run: RunOptions, idempotent: boolean): Promise<unknown> {
  const once = () => attempt(options, url, body, run.abortSignal);
  if (!idempotent) return once();
  return retryWithBackoff(once, {
    maxRetries: options.maxRetries ?? 2,
    initialDelayMs: 200,
    abortSignal: run.abortSignal,
    operation: `strata service ${url}`,
  });
}

async function attempt(options: RemoteOptions, url: string, body: unknown, abortSignal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = abortSignal ? AbortSignal.any([abortSignal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (abortSignal?.aborted) throw abortErrorFrom(abortSignal);
    const timedOut = timeout.aborted;
    throw new StrataError({
      code: timedOut ? 'TIMEOUT' : 'UNAVAILABLE',
      message: timedOut
        ? `The Strata service at ${new URL(url).origin} did not answer within ${options.timeoutMs ?? 30_000} ms.`
        : `Cannot reach the Strata service at ${new URL(url).origin}: ${(error as Error).message} (is strata serve running there? check STRATA_URL).`,
      cause: error,
      isRetryable: true,
    });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = undefined;
  }
  if (response.ok && parsed !== undefined) return parsed;
  const error = (parsed as { error?: { code?: string; message?: string; reason?: string } } | undefined)?.error;
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new StrataError({
    code: (error?.code ?? (response.status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT')) as StrataErrorCode,
    message: error?.message
      ? `${error.message}${response.status === 401 ? ` (check ${options.tokenEnv ?? 'STRATA_TOKEN'})` : ''}`
      : `The Strata service answered ${response.status} ${response.statusText} to ${new URL(url).pathname}.`,
    isRetryable: RETRY_STATUS.has(response.status),
    details: {
      status: response.status,
      ...(error?.reason ? { reason: error.reason } : {}),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    },
  });
}
