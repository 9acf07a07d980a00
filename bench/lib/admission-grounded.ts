import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { admit } from '../../src/core/distill/admission.js';
import type { EvidenceMessage } from '../../src/core/distill/grounding.js';
import { loadJsonl } from '../admission.js';
import { printTable } from './table.js';

/**
 * Extractor output with the conversation it was written from (bench/data/README.md): each row is a
 * whole conversation written by a helper, and the memories three extractors (careful, sloppy, terse)
 * wrote from it, each citing its source messages and labelled with the conversation in hand. Scored
 * twice: the gate on the memory's text alone, and the gate given the conversation and the cited ids
 * (as `strata distill` gives it), which rejects what the user's words do not bear out and holds what
 * only the agent said to the agent-prose standard (grounding.ts, admission.ts).
 */
const GROUNDED_SETS = [
  ['admission-llm-grounded-a.jsonl', 'dev'],
  ['admission-llm-grounded-b.jsonl', 'dev'],
  ['admission-llm-grounded-c.jsonl', 'dev'],
  ['admission-llm-grounded-d.jsonl', 'dev'],
  ['admission-llm-grounded-e.jsonl', 'blind (one row read)'],
  ['admission-llm-grounded-f.jsonl', 'blind'],
  ['admission-llm-grounded-g.jsonl', 'blind'],
  ['admission-llm-grounded-h.jsonl', 'blind'],
  ['admission-llm-grounded-i.jsonl', 'blind (zh, one row read)'],
  ['admission-llm-grounded-j.jsonl', 'blind (zh, one row read)'],
  ['admission-llm-grounded-k.jsonl', 'blind, never read'],
  ['admission-llm-grounded-l.jsonl', 'blind, never read'],
  ['admission-llm-grounded-m.jsonl', 'blind (es), never read'],
] as const;

interface GroundedConversation {
  conversation: number;
  messages: EvidenceMessage[];
  memories: Array<{ text: string; sources: string[]; label: 'keep' | 'junk'; reason: string; extractor: string }>;
}

const pct = (n: number, of: number): string => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)} %`);

export function printGroundedSets(options: { dataDir: string }): void {
  const rows = GROUNDED_SETS.filter(([file]) => existsSync(join(options.dataDir, file))).map(([file, role]) => {
    const t = {
      keep: 0,
      junk: 0,
      aloneJunk: 0,
      aloneKeepRejected: 0,
      withJunk: 0,
      withKeepRejected: 0,
      oneOff: 0,
      corrected: 0,
      agentOnly: 0,
      unstated: 0,
    };
    for (const c of loadJsonl<GroundedConversation>(join(options.dataDir, file))) {
      for (const m of c.memories) {
        const keep = m.label === 'keep';
        const alone = admit({ text: m.text, source: 'llm' });
        const withEvidence = admit({ text: m.text, source: 'llm', evidence: { messages: c.messages, cited: m.sources } });
        if (keep) {
          t.keep++;
          if (!alone.admitted) t.aloneKeepRejected++;
          if (!withEvidence.admitted) t.withKeepRejected++;
        } else {
          t.junk++;
          if (alone.admitted) t.aloneJunk++;
          if (withEvidence.admitted) t.withJunk++;
        }
        if (alone.admitted && withEvidence.reason === 'ungrounded') {
          if (withEvidence.detail?.startsWith('corrected')) t.corrected++;
          else if (withEvidence.detail?.startsWith('only the agent')) t.agentOnly++;
          else if (withEvidence.detail?.startsWith('a detail')) t.unstated++;
          else t.oneOff++;
        }
      }
    }
    return [
      file,
      role,
      t.keep,
      t.junk,
      `${pct(t.aloneJunk, t.junk)} · ${pct(t.aloneKeepRejected, t.keep)}`,
      `${pct(t.withJunk, t.junk)} · ${pct(t.withKeepRejected, t.keep)}`,
      t.oneOff,
      t.corrected,
      t.agentOnly,
      t.unstated,
    ];
  });
  printTable(
    'Extractor output with its conversation: the gate on the text alone, and given the conversation (junk admitted · keep rejected)',
    [
      'file',
      'role',
      'keep',
      'junk',
      'text alone',
      'with the conversation',
      'rejected: one-off made a rule',
      'rejected: corrected later',
      'rejected: only the agent said it',
      'rejected: a detail never stated',
    ],
    rows,
  );
}
