/** Request parsing: JSON bodies (media type, syntax) and zod schemas for bodies and query strings. */
import type { Context } from 'hono';
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import { HttpError } from './errors.js';

export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the request body as JSON with Content-Type: application/json.' });
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError({ status: 400, code: 'MALFORMED_JSON', message: `The request body is not valid JSON: ${(error as Error).message}` });
  }
  return parseWith(schema, value);
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError({ status: 400, code: 'VALIDATION_ERROR', message: z.prettifyError(result.error) });
  return result.data;
}

const category = z.enum(MEMORY_CATEGORIES);
const unit = z.number().min(0).max(1);
const scope = z.string().min(1).max(200);
const tags = z.array(z.string().min(1).max(64)).max(32);
const text = z.string().min(1).max(20_000);
const boolFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const intParam = (min: number, max: number) => z.string().regex(/^\d{1,9}$/, 'expected a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

export const schemas = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a memory id'),
  createMemory: z.strictObject({ text, scope: scope.optional(), category: category.optional(), importance: unit.optional(), confidence: unit.optional(), tags: tags.optional(), validFrom: z.iso.datetime().optional() }),
  updateMemory: z
    .strictObject({ text: text.optional(), scope: scope.optional(), category: category.optional(), importance: unit.optional(), confidence: unit.optional(), tags: tags.optional(), validTo: z.iso.datetime().nullable().optional() })
    .refine((v) => Object.keys(v).length > 0, 'give at least one field to change'),
  recall: z.strictObject({
    query: z.string().min(1).max(4000),
    scopes: z.array(scope).min(1).max(32).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    categories: z.array(category).max(8).optional(),
    includeHistory: z.boolean().optional(),
    minScore: unit.optional(),
    explain: z.boolean().optional(),
    rerank: z.boolean().optional(),
  }),
  listQuery: z.strictObject({
    scope: z.array(scope).max(32).optional(),
    category: z.array(category).max(8).optional(),
    tag: z.array(z.string().min(1).max(64)).max(16).optional(),
    limit: intParam(1, 1000).optional(),
    offset: intParam(0, 1_000_000_000).optional(),
    order: z.enum(['newest', 'oldest']).optional(),
    history: boolFlag.optional(),
  }),
  conversationSearch: z.strictObject({ query: z.string().min(1).max(4000), limit: z.number().int().min(1).max(100).optional(), sessionKey: z.string().min(1).max(200).optional() }),
  usageQuery: z.strictObject({ since: z.iso.datetime().optional() }),
  exportQuery: z.strictObject({ scope: z.array(scope).max(32).optional(), history: boolFlag.optional() }),
};

/** Query parameters as arrays for the keys that repeat, single values for the rest. */
export function queryObject(c: Context, repeatable: readonly string[]): Record<string, unknown> {
  const all = c.req.queries();
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, repeatable.includes(k) ? v : v[v.length - 1]]));
}
