/**
 * The one place errors become text and HTTP statuses. Every host shows a failed operation the same
 * way (`error [CODE]: message`), so a model or a script sees the same code whatever host it uses.
 */
import { z } from 'zod';
import { InvalidArgumentError, StrataError } from '../../errors/index.js';

export interface ErrorInfo {
  code: string;
  message: string;
}

/** Invalid input as an InvalidArgumentError naming every bad field (what zod found, readable). */
export function invalidInput(error: z.ZodError, operation?: string): InvalidArgumentError {
  const issues = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`);
  const first = error.issues[0]?.path.join('.') || 'input';
  return new InvalidArgumentError({
    argument: first,
    message: `Invalid ${operation ? `${operation} ` : ''}input: ${issues.join('; ')}.`,
    cause: error,
  });
}

/**
 * Code and message of any thrown value. `expose: false` (network hosts) hides the message of an
 * unexpected error, which may carry paths or internals; typed errors are always shown.
 */
export function describeError(error: unknown, options: { expose?: boolean } = {}): ErrorInfo {
  if (error instanceof z.ZodError) return describeError(invalidInput(error));
  if (StrataError.isInstance(error)) return { code: error.code, message: error.message };
  if (options.expose === false) return { code: 'INTERNAL', message: 'Internal error (details are in the server log).' };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

export function errorText(error: unknown, options: { expose?: boolean } = {}): string {
  const { code, message } = describeError(error, options);
  return `error [${code}]: ${message}`;
}

/** HTTP status per error code; anything not listed is a 500. */
const HTTP_STATUS: Readonly<Record<string, number>> = {
  INVALID_ARGUMENT: 400,
  INVALID_SCOPE: 400,
  IMPORT_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN_SCOPE: 403,
  NOT_FOUND: 404,
  ABORTED: 499,
  UNSUPPORTED: 501,
  PROVIDER_CALL: 502,
  PROVIDER_AUTH: 502,
  PROVIDER_MODEL_NOT_FOUND: 502,
  PROVIDER_DIMENSION_MISMATCH: 502,
  RETRY_EXHAUSTED: 502,
  STORE_LOCKED: 503,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
};

export function httpStatusOf(code: string): number {
  return HTTP_STATUS[code] ?? 500;
}

/** Usage errors (bad input from the caller) as opposed to failures of the engine or a provider. */
export function isUsageError(code: string): boolean {
  return code === 'INVALID_ARGUMENT' || code === 'INVALID_SCOPE' || code === 'FORBIDDEN_SCOPE';
}
