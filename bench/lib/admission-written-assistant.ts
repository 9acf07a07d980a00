import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import { loadJsonl, rates } from '../admission.js';
import { captureYield } from './summary-documents.js';
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
interface AssistantMessageRow {
  session: number;
  host: string;
  message: string;
  units: Unit[];
}

export function printWrittenAssistantSets(options: { dataDir: string }): void {
  const rows = WRITTEN_ASSISTANT_SETS.filter(([f]) => existsSync(join(options.dataDir, f))).map(([f, role]) => {
    const messages = loadJsonl<AssistantMessageRow>(join(options.dataDir, f));
    const units = messages.flatMap((m) => m.units);
    const m = rates(units.map((u) => ({ label: u.label, admitted: admit({ text: u.text, source: 'assistant' }).admitted })));
    const y = captureYield(
      messages.map((message) => ({ text: message.message, units: message.units })),
      'assistant',
    );
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
