/** JSON errors for the HTTP API: `{ error: { code, message } }` with a status that fits the cause. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { StrataError } from '../../errors/index.js';
import { isScopeNotAllowed } from '../mcp/caller.js';

export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  constructor(options: { status: ContentfulStatusCode; code: string; message: string }) {
    super(options.message);
    this.name = 'HttpError';
    this.status = options.status;
    this.code = options.code;
  }
}

const STATUS_BY_CODE: Partial<Record<string, ContentfulStatusCode>> = {
  INVALID_ARGUMENT: 400,
  INVALID_SCOPE: 400,
  IMPORT_INVALID: 400,
  NOT_FOUND: 404,
  STORE_LOCKED: 503,
  TIMEOUT: 504,
  ABORTED: 499 as ContentfulStatusCode,
  UNSUPPORTED: 501,
  PROVIDER_CALL: 502,
  PROVIDER_AUTH: 502,
  PROVIDER_MODEL_NOT_FOUND: 502,
  PROVIDER_DIMENSION_MISMATCH: 502,
  RETRY_EXHAUSTED: 502,
};

export function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** Maps any thrown value to a status and body; unknown errors are logged and not echoed. */
export function toHttpError(error: unknown): { status: ContentfulStatusCode; body: ReturnType<typeof errorBody> } {
  if (error instanceof HttpError) return { status: error.status, body: errorBody(error.code, error.message) };
  if (error instanceof z.ZodError) return { status: 400, body: errorBody('VALIDATION_ERROR', z.prettifyError(error)) };
  if (StrataError.isInstance(error)) {
    if (isScopeNotAllowed(error)) return { status: 403, body: errorBody('FORBIDDEN_SCOPE', error.message) };
    return { status: STATUS_BY_CODE[error.code] ?? 500, body: errorBody(error.code, error.message) };
  }
  process.stderr.write(`strata serve: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return { status: 500, body: errorBody('INTERNAL', 'Internal server error (details are in the server log).') };
}
