import { InvalidArgumentError, StorageError, StrataError } from '../../errors/index.js';

/** SQLSTATE classes: what may work if repeated (connection loss, shutdown, conflicts between transactions). */
const RETRYABLE = [/^08/, /^57P0[1-3]$/, /^40001$/, /^40P01$/, /^53/];
const NODE_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ENOENT']);

/** Turns driver errors into Strata errors; Strata errors pass through. Never includes the URL. */
export function storageErrorOf(what: string, error: unknown): StrataError {
  if (StrataError.isInstance(error)) return error;
  const e = error as { code?: string; message?: string; constraint?: string };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = e.message ?? String(error);
  if (code === '23505') {
    return new InvalidArgumentError({
      argument: 'records',
      message: `PostgreSQL ${what}: a record with this id already exists (${message}); use update for existing memories.`,
    });
  }
  if (/^22/.test(code))
    return new InvalidArgumentError({ argument: 'records', message: `PostgreSQL ${what} rejected a value: ${message}` });
  if (code === '55P03')
    return new StorageError({ code: 'STORE_LOCKED', isRetryable: true, message: `PostgreSQL ${what}: ${message}`, cause: error });
  const network = NODE_NETWORK.has(code) || /Connection terminated|timeout exceeded when trying to connect/i.test(message);
  if (network) {
    return new StorageError({
      isRetryable: true,
      message: `Cannot reach PostgreSQL (${what}): ${message}. Check that the server is running and the URL in the store's urlEnv variable is right.`,
      cause: error,
    });
  }
  return new StorageError({
    isRetryable: RETRYABLE.some((r) => r.test(code)),
    message: `PostgreSQL ${what} failed: ${message}`,
    cause: error,
    details: code ? { sqlstate: code } : undefined,
  });
}

export async function wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw storageErrorOf(what, error);
  }
}
