import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import { captureByRules } from '../../src/core/distill/rules.js';
import { loadJsonl, rates } from '../admission.js';
import { sourceUnit } from './summary-documents.js';
import { printTable } from './table.js';

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;

/**
 * Assistant messages written blind (bench/data/README.md): whole messages of coding agents and an
 * OpenClaw personal assistant, each cut by its writer into units labelled keep (a lesson, a lasting
 * fact, a convention restated) or junk. Measured two ways: the gate on each unit (source
 * `assistant`), and offline capture over the whole message as the product reads it (two memories a
 * message at most), each memory matched back to the unit it came from.
 */
const WRITTEN_ASSISTANT_SETS = [
  ['admission-assistant-dev-1.jsonl', 'dev'],
  ['admission-assistant-dev-2.jsonl', 'dev'],
  ['admission-assistant-blind-3.jsonl', 'blind'],
  ['admission-assistant-blind-4.jsonl', 'blind'],
  ['admission-assistant-dev-5.jsonl', 'dev'],
  ['admission-assistant-dev-6.jsonl', 'dev'],
  ['admission-assistant-dev-7.jsonl', 'dev'],
  ['admission-assistant-dev-8.jsonl', 'dev'],
  ['admission-assistant-blind-9.jsonl', 'blind'],
  ['admission-assistant-blind-10.jsonl', 'blind'],
] as const;

interface Unit {
  text: string;
  label: 'keep' | 'junk';
  reason: string;
}
export interface AssistantMessageRow {
  session: number;
  host: string;
  message: string;
  units: Unit[];
}

/** What offline capture learns from whole messages: memories and the labelled units they came from. */
export function assistantMessageYield(messages: readonly AssistantMessageRow[]) {
  const out = { memories: 0, keep: 0, junk: 0, unmatched: 0, pairs: [] as Array<{ memory: string; unit?: Unit }> };
  for (const m of messages) {
    const seen = new Set<Unit>();
    for (const c of captureByRules({ text: m.message, role: 'assistant' })) {
      out.memories++;
      const unit = sourceUnit(c.text, m.units);
      out.pairs.push({ memory: c.text, ...(unit ? { unit } : {}) });
      if (!unit) out.unmatched++;
      else if (!seen.has(unit)) {
        seen.add(unit);
        out[unit.label]++;
      }
    }
  }
  return out;
}

export function printWrittenAssistantSets(options: { dataDir: string }): void {
  const rows = WRITTEN_ASSISTANT_SETS.filter(([f]) => existsSync(join(options.dataDir, f))).map(([f, role]) => {
    const messages = loadJsonl<AssistantMessageRow>(join(options.dataDir, f));
    const units = messages.flatMap((m) => m.units);
    const m = rates(units.map((u) => ({ label: u.label, admitted: admit({ text: u.text, source: 'assistant' }).admitted })));
    const y = assistantMessageYield(messages);
    return [f, role, messages.length, m.keep, m.junk, pct(m.junkAdmitted), pct(m.keepRejected), y.memories, y.keep, y.junk, y.unmatched];
  });
  printTable(
    'Assistant messages written blind: gate alone on each unit (source assistant), and offline capture over whole messages',
    [
      'file',
      'role',
      'messages',
      'keep',
      'junk',
      'junk admitted',
      'keep rejected',
      'memories',
      'from keep units',
      'from junk units',
      'unmatched',
    ],
    rows,
  );
}
