/** JSON errors for the HTTP API: `{ error: { code, message } }`, with the status the operations layer maps the code to. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { StrataError } from '../../errors/index.js';
import { describeError, httpStatusOf } from '../../core/ops/index.js';

/** Failures of the protocol itself (media type, body syntax, token, Host, Origin). */
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

export function errorBody(code: string, message: string, reason?: string): { error: { code: string; message: string; reason?: string } } {
  return { error: reason ? { code, message, reason } : { code, message } };
}

/** Maps any thrown value to a status and body; unexpected errors are logged and not echoed. */
export function toHttpError(error: unknown): { status: ContentfulStatusCode; body: ReturnType<typeof errorBody> } {
  if (error instanceof HttpError) return { status: error.status, body: errorBody(error.code, error.message) };
  const { code, message } = describeError(error, { expose: false });
  if (code === 'INTERNAL' && !StrataError.isInstance(error)) {
    process.stderr.write(`strata serve: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  // UNAUTHORIZED says why (MISSING_TOKEN, INVALID_TOKEN, TOKEN_REVOKED), so a client can tell a revoked token from a typo.
  const reason = StrataError.isInstance(error) && typeof error.details?.reason === 'string' ? error.details.reason : undefined;
  return { status: httpStatusOf(code) as ContentfulStatusCode, body: errorBody(code, message, reason) };
}
