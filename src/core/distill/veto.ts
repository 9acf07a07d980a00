import type { AdmissionReason } from './admission.js';

/** Why a sentence is junk however durable it sounds: the gate's reason and what fired. */
export interface Veto {
  reason: AdmissionReason;
  detail: string;
}

/** A table of checks in order, each with the veto it gives. */
export type VetoTable = ReadonlyArray<readonly [{ test(text: string): boolean }, Veto]>;

/** The veto of the first check in `table` that `text` meets. */
export function firstVeto(text: string, table: VetoTable): Veto | undefined {
  return table.find(([check]) => check.test(text))?.[1];
}
