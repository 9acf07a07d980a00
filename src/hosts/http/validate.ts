/**
 * Request parsing: JSON bodies (media type, syntax) and query strings turned into operation input.
 * What the values must be is the operation's business; this only undoes the HTTP encoding.
 */
import type { Context } from 'hono';
import { HttpError } from './errors.js';

export async function jsonBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Send the request body as JSON with Content-Type: application/json.',
    });
  }
  // A body cut off (the client went away, or took longer than the request time limit) is not a server error.
  const text = await c.req.text().catch((error: unknown) => {
    throw new HttpError({ status: 408, code: 'REQUEST_TIMEOUT', message: `The request body did not arrive: ${(error as Error).message}` });
  });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError({
      status: 400,
      code: 'MALFORMED_JSON',
      message: `The request body is not valid JSON: ${(error as Error).message}`,
    });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface QueryShape {
  /** Keys that may repeat (`?scope=a&scope=b`), kept as arrays. */
  arrays?: readonly string[];
  ints?: readonly string[];
  bools?: readonly string[];
  /** Query name -> input field name. */
  rename?: Readonly<Record<string, string>>;
}

/**
 * The query string as an operation input. Values that do not look like their type are passed on
 * as text, so the operation's schema names them; unknown keys too, so a strict schema rejects them.
 */
export function queryInput(c: Context, shape: QueryShape = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    const last = values[values.length - 1] ?? '';
    let value: unknown = shape.arrays?.includes(key) ? values : last;
    if (shape.ints?.includes(key) && /^\d{1,12}$/.test(last)) value = Number(last);
    if (shape.bools?.includes(key) && /^(true|false|1|0)$/.test(last)) value = last === 'true' || last === '1';
    out[shape.rename?.[key] ?? key] = value;
  }
  return out;
}
