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

/** A feature branch is this piece of work's ("from now on work in feature/telemetry"), unless its naming is the point. */
const FEATURE_BRANCH = /\b(?:feature|feat|fix|bugfix|hotfix|chore)\/[\w./-]+/i;
const BRANCH_NAMING = /\b(?:convention|convencion|naming|pattern|format|formato|prefix(?:es)?|prefijos?|ej)\b|\be\.g\./i;

/** A user's sentence that names a feature branch is about the task at hand (English and Spanish). */
export function featureBranchVeto(text: string): Veto | undefined {
  return FEATURE_BRANCH.test(text) && !BRANCH_NAMING.test(text) ? { reason: 'passing-state', detail: 'feature branch' } : undefined;
}
