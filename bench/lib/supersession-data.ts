/**
 * The supersession scenarios (bench/data/supersession-*.jsonl) and the verdict on what a run left
 * current. A scenario's messages carry a role: `old` (the first statement), `restate` (the same again
 * in other words), `new` / `newer` (a change), `other` (a look-alike that does not replace `old`),
 * `noise` (nothing durable).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MemoryRecord } from '../../src/spec/memory-record.js';

export type Role = 'old' | 'restate' | 'new' | 'newer' | 'other' | 'noise';
export interface Scenario {
  id: string;
  kind: 'change' | 'chain' | 'restate' | 'distinct';
  domain: string;
  messages: Array<{ day: number; role: Role; text: string }>;
}
export interface ScenarioSet {
  name: string;
  role: string;
  scenarios: Scenario[];
}

const DATA = fileURLToPath(new URL('../data/', import.meta.url));
/** Which sets were read while the rules were written, and which were only measured. */
const ROLES: Record<string, string> = {
  'en-a': 'dev',
  'en-b': 'blind',
  'en-c': 'blind',
  'en-d': 'dev',
  'en-e': 'blind',
  'es-a': 'dev',
  'es-b': 'blind',
  'es-c': 'dev',
  'es-d': 'dev',
  'en-f': 'dev',
  'en-g': 'blind',
  'es-e': 'dev',
  'es-f': 'blind',
  'en-h': 'dev',
  'es-g': 'dev',
};

export function readScenarioSets(): ScenarioSet[] {
  return readdirSync(DATA)
    .filter((f) => /^supersession-(?:en|es)-\w+\.jsonl$/.test(f))
    .sort()
    .map((f) => {
      const name = f.replace(/^supersession-|\.jsonl$/g, '');
      const scenarios = readFileSync(DATA + f, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Scenario);
      return { name, role: ROLES[name] ?? '?', scenarios };
    });
}

export interface Outcome {
  right: boolean;
  /** Rules stored a memory from every statement the verdict needs. */
  testable: boolean;
  why: 'right' | 'not learned' | 'both current' | 'duplicate' | 'wrongly superseded';
  noiseStored: number;
  detail: string;
}

export function judgeScenario(s: Scenario, memories: MemoryRecord[]): Outcome {
  const from = (i: number) => memories.filter((m) => (m.source.messageIds ?? []).includes(`${s.id}#${i}`));
  const learned = (i: number) => from(i).length > 0;
  const current = (i: number) => from(i).filter((m) => m.validTo === null).length;
  const at = (...roles: Role[]) => s.messages.flatMap((m, i) => (roles.includes(m.role) ? [i] : []));
  const noiseStored = at('noise').reduce((n, i) => n + from(i).length, 0);
  const detail = s.messages
    .map((m, i) => {
      const ms = from(i).map((r) => `      ${r.validTo === null ? 'current' : 'past   '} ${r.text}`);
      return [`  ${m.role} (day ${m.day}): ${m.text}`, ...ms].join('\n');
    })
    .join('\n');
  const verdict = (why: Outcome['why'], testable: boolean): Outcome => ({ right: why === 'right', testable, why, noiseStored, detail });

  if (s.kind === 'change' || s.kind === 'chain') {
    const final = at(s.kind === 'chain' ? 'newer' : 'new').at(-1);
    const earlier = at('old', 'restate', ...(s.kind === 'chain' ? (['new'] as Role[]) : []));
    if (final === undefined) throw new Error(`${s.id}: no ${s.kind === 'chain' ? 'newer' : 'new'} message`);
    const testable = learned(final) && at('old', 'new').every(learned);
    const stale = earlier.some((i) => current(i) > 0);
    if (current(final) > 0 && stale) return verdict('both current', testable);
    if (learned(final) && current(final) === 0) return verdict('wrongly superseded', testable);
    // Right means the change was recorded: the first statement learned, and now in the past.
    if (current(final) > 0 && at('old').every(learned)) return verdict('right', testable);
    return verdict('not learned', testable);
  }
  const group = at('old', 'restate', 'other');
  const testable = group.filter(learned).length >= 2;
  if (s.kind === 'restate') {
    const live = group.reduce((n, i) => n + current(i), 0);
    if (live === 1) return verdict('right', testable);
    if (live > 1) return verdict('duplicate', testable);
    return verdict(group.some(learned) ? 'wrongly superseded' : 'not learned', testable);
  }
  const [old, other] = [at('old')[0]!, at('other')[0]!];
  if (current(old) > 0 && current(other) > 0) return verdict('right', testable);
  if ((learned(old) && current(old) === 0) || (learned(other) && current(other) === 0)) return verdict('wrongly superseded', testable);
  return verdict('not learned', testable);
}
