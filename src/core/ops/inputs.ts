/**
 * The pieces operation inputs are built from. Shapes stay loose where the engine gives the better
 * error (a scope's grammar: INVALID_SCOPE; whether the caller holds it: FORBIDDEN_SCOPE) and strict
 * where only the input can be checked (sizes, enums, ids).
 */
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../../spec/memory-record.js';
import type { Caller } from '../caller.js';
import { countChars, normalizeText } from '../write/normalize.js';
import type { OpLimits } from './limits.js';

export interface InputContext {
  limits: OpLimits;
  caller: Caller;
}

export const category = z.enum(MEMORY_CATEGORIES);
export const unit = z.number().min(0).max(1);
/** Memory ids are ULIDs; the alphabet keeps ids out of paths and filters. */
export const memoryId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a memory id (letters, digits, _ and -)');
/** UTC only, as every time Strata stores. */
export const isoDate = z.iso.datetime();

export function query(ctx: InputContext) {
  return z.string().min(1).max(ctx.limits.queryMaxChars).describe('What to search for, in plain words');
}

/** A memory's text, counted like the engine counts it (code points after normalisation). */
export function memoryText(ctx: InputContext) {
  const max = ctx.limits.textMaxChars;
  return z
    .string()
    .min(1)
    .refine((s) => countChars(normalizeText(s)) <= max, {
      message: `at most ${max} characters (write.maxChars); split a longer text into self-contained memories`,
    })
    .meta({ maxLength: max });
}

export function tags(ctx: InputContext) {
  return z.array(z.string().min(1).max(ctx.limits.tagMaxChars)).max(ctx.limits.tagsMax);
}

export function resultLimit(ctx: InputContext) {
  return z
    .number()
    .int()
    .min(1)
    .max(ctx.limits.resultsMax)
    .describe(`How many results (default ${ctx.limits.resultsDefault}, at most ${ctx.limits.resultsMax})`);
}

function scopeHelp(caller: Caller): string {
  if (caller.owner) return 'Narrow to these scopes (owner mode: any scope). Omitted: every scope.';
  return `Narrow to some of your scopes: ${caller.scopes.join(', ')}. Omitted: all of them.`;
}

/** Read scopes: one scope or a list, each of which the caller must hold. */
export function readScope(ctx: InputContext) {
  const one = z.string().min(1).max(200);
  return z.union([one, z.array(one).min(1).max(ctx.limits.scopesMax)]).describe(scopeHelp(ctx.caller));
}

/** The scope a write goes to. */
export function writeScope(ctx: InputContext) {
  const others = ctx.caller.owner ? 'any scope (owner mode)' : ctx.caller.scopes.join(', ');
  return z.string().min(1).max(200).describe(`Where to store it: ${others}. Omitted: ${ctx.caller.writeScope}.`);
}

/** An agent whose scenes/persona to read (the caller must hold `agent:<id>`); the alphabet of their folders. */
export const agentParam = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'expected an agent id (letters, digits, . _ -)')
  .refine((a) => !a.includes('..'), 'expected an agent id')
  .describe('Another agent whose agent:<id> scope you hold; default: your own');
