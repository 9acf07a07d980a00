/**
 * Reconciliation without a model, by rules: a restatement of a current memory is skipped, a change
 * replaces the memory it is about (slots.ts for single-valued choices, change-target.ts beyond
 * them), anything else is created. "Current" includes what earlier statements of the same batch
 * are about to store: a session is distilled once, at its end, and "our staging db is on 5433 ...
 * actually staging moved to 5434" said in it must leave one current memory, not two.
 */
import type { MemoryRecord } from '../../spec/memory-record.js';
import { cosineSimilarity } from '../recall/diversity.js';
import { statesDifferentFacts } from '../write/changed-fact.js';
import { statedAtOf, type Candidate } from './extract.js';
import { alsoReplaced, isAdditive, isRetelling, marksChange, replacedMemory, replacedNames, subjectWords } from './change-target.js';
import { isChangeStatement, isChoiceStatement, sameContext, slotsOf, type Slot } from './slots.js';
import { isPersonalSlot } from './personal-slots.js';
import { deviceKindOfNoun, deviceSlotsOf, isDeviceSlot } from './device-slots.js';
import { rescheduledMemory } from './schedule-change.js';

/** Where a current memory lives: in the store, or in the decision of an earlier candidate of the batch. */
export type CurrentRef = { id: string } | { candidate: number };

/** A memory that is current while the batch is reconciled. */
export interface CurrentItem {
  text: string;
  /** When it started being true (ms since the epoch). */
  since: number;
  ref: CurrentRef;
}

export interface OfflineVerdict {
  kind: 'skip' | 'supersede' | 'create';
  target?: CurrentRef;
  /** Other current memories a supersede ends too: retellings of the thing the change says was dropped. */
  also?: CurrentRef[];
  reason: string;
  by: 'rules' | 'near' | 'none-similar';
}

/**
 * What to do with one candidate. `current` holds every current memory of its scope, newest first;
 * `similar` those close to it, with a cosine when found by vector.
 */
export function decideOffline(options: {
  text: string;
  statedAt: number;
  current: readonly CurrentItem[];
  similar: ReadonlyArray<{ item: CurrentItem; similarity?: number }>;
  nearDuplicateThreshold: number;
  /**
   * The speaker marked the statement as said before (restatement-markers.ts): the close memory
   * sharing a word with it is what it retells.
   */
  restated?: boolean;
  /**
   * No trigger phrase introduced it: a plain fact, often told again in other words, so a memory
   * closer than most (cosine 0.7) sharing two words with it is what it retells. A close topic and
   * one shared word are not enough: "my pension pot sits in an aviva account" retells no "my
   * salary goes into my monzo account".
   */
  untriggered?: boolean;
}): OfflineVerdict {
  const { text, statedAt, current, similar } = options;
  const before = current.filter((m) => m.since <= statedAt);
  // "we ripped datadog out": the tool a statement drops is not its choice.
  const dropped = replacedNames(text);
  const isDropped = (value: string) => dropped.some((n) => n === value || n.startsWith(`${value} `));
  const slots = slotsOf(text, { dropped: isDropped }).filter((slot) => !isDropped(slot.value));
  // The slots of the current memories, read once for every slot of the statement.
  const slotted = slots.length > 0 ? current.map((item) => ({ item, slots: slotsOf(item.text) })) : [];
  for (const slot of slots) {
    const verdict = slotVerdict({ text, statedAt, slot, slotted, isDropped });
    if (verdict) return verdict;
  }
  const sold = deviceDropped({ dropped, memories: before });
  if (sold) return { kind: 'supersede', target: sold.ref, reason: `device gone: replaces "${sold.text.slice(0, 80)}"`, by: 'rules' };
  const replaced = replacedMemory({ text, memories: before });
  if (replaced) {
    const also = alsoReplaced({ text, memories: before, primary: replaced }).map((m) => m.ref);
    const reason = `changed: replaces "${replaced.text.slice(0, 80)}"${also.length > 0 ? ` and ${also.length} retelling(s)` : ''}`;
    return { kind: 'supersede', target: replaced.ref, ...(also.length > 0 ? { also } : {}), reason, by: 'rules' };
  }

  const moved = rescheduledMemory({ text, memories: before });
  if (moved)
    return { kind: 'supersede', target: moved.ref, reason: `moved to another time: replaces "${moved.text.slice(0, 80)}"`, by: 'rules' };

  const near = similar.find((s) => s.similarity !== undefined && s.similarity >= options.nearDuplicateThreshold);
  // "the analytics warehouse is on clickhouse, separate from the app db": a second thing, however close.
  const nearWords = near && isAdditive(text) ? subjectWords(near.item.text) : undefined;
  if (near && nearWords && [...subjectWords(text)].some((w) => !nearWords.has(w)))
    return { kind: 'create', reason: `a second thing beside "${near.item.text.slice(0, 60)}"`, by: 'rules' };
  if (near) {
    const similarity = near.similarity!.toFixed(3);
    // Near-identical but another number, date, name or negation: a changed fact, never a duplicate.
    if (statesDifferentFacts(text, near.item.text)) {
      return { kind: 'supersede', target: near.item.ref, reason: `changed fact (similarity ${similarity})`, by: 'near' };
    }
    return { kind: 'skip', target: near.item.ref, reason: `near duplicate (similarity ${similarity})`, by: 'near' };
  }
  const plain = { plain: options.untriggered === true };
  const retold = similar.find((s) => isRetelling(text, { record: s.item, similarity: s.similarity }, plain));
  if (retold) {
    return {
      kind: 'skip',
      target: retold.item.ref,
      reason: `restated in other words (similarity ${retold.similarity!.toFixed(3)})`,
      by: 'rules',
    };
  }
  // "as I said, ..." / "we're still on heroku": told again in other words, so the closest memory
  // sharing a word with it is the one retold, when nothing says it changed or adds a second thing.
  const told = options.restated
    ? similar.find((s) => isRetelling(text, { record: s.item, similarity: s.similarity }, { marked: true }))
    : undefined;
  if (told) {
    const similarity = told.similarity === undefined ? 'by text' : `similarity ${told.similarity.toFixed(3)}`;
    return { kind: 'skip', target: told.item.ref, reason: `said again, the speaker says so (${similarity})`, by: 'rules' };
  }
  return similar.length === 0
    ? { kind: 'create', reason: 'nothing similar stored', by: 'none-similar' }
    : { kind: 'create', reason: 'no LLM configured', by: 'rules' };
}

/** A current memory with the single-valued choices it names. */
interface Slotted {
  item: CurrentItem;
  slots: Slot[];
}

/** A single-valued choice stated again, changed, or stated before the current one. */
function slotVerdict(options: {
  text: string;
  statedAt: number;
  slot: Slot;
  slotted: readonly Slotted[];
  isDropped: (value: string) => boolean;
}): OfflineVerdict | undefined {
  const { text, statedAt, slot, slotted, isDropped } = options;
  const valueIn = (m: Slotted) => m.slots.find((s) => s.slot === slot.slot)?.value;
  const mate = slotted.find((m) => valueIn(m) !== undefined && sameContext(text, m.item.text, slot));
  if (!mate) {
    const only = onlyChoiceOfSlot(
      text,
      slot,
      slotted.filter((m) => m.item.since <= statedAt),
      isDropped,
    );
    return only ? { kind: 'supersede', target: only.ref, reason: `${slot.slot} changed to ${slot.value}`, by: 'rules' } : undefined;
  }
  // A restatement of the same choice is a duplicate; a different choice, stated later, supersedes
  // it; stated earlier, it is history already replaced and is skipped.
  const mateValue = valueIn(mate);
  if (mateValue === slot.value)
    return { kind: 'skip', target: mate.item.ref, reason: `same ${slot.slot} (${slot.value}) already stored`, by: 'rules' };
  if (statedAt < mate.item.since)
    return { kind: 'skip', target: mate.item.ref, reason: `stated before the current ${slot.slot} (${mateValue})`, by: 'rules' };
  // Where one lives, whom one reports to and one's phone, car or computer change when the speaker says
  // so ("me mudé", "me compré", "now"); two plain statements of them ("vivo en X", "vivo en Y") may be
  // a correction or two people's, so stay.
  const device = isDeviceSlot(slot.slot);
  const personal = isPersonalSlot(slot.slot) || device;
  // "went full neovim, uninstalled vscode": dropping the stored choice and naming another is a change.
  const changed = isChangeStatement(text) || (mateValue !== undefined && isDropped(mateValue)) || (device && slot.change === true);
  if (!isAdditive(text) && (changed || (!personal && isChoiceStatement(text) && isChoiceStatement(mate.item.text))))
    return { kind: 'supersede', target: mate.item.ref, reason: `${slot.slot} changed from ${mateValue} to ${slot.value}`, by: 'rules' };
  return undefined;
}

/** Tools a team or a person runs one of at a time; databases and languages are often several at once. */
const ONE_AT_A_TIME = new Set(['editor', 'shell', 'terminal', 'package manager', 'browser', 'os', 'ci', 'apm', 'error tracker']);

/**
 * "finished the move to datadog, new relic dashboards are read-only": a change of a tool whose
 * slot exactly one memory holds replaces that memory, whatever else either says around it. Two
 * memories of the slot ("unit tests on jest", "e2e on playwright") leave it to the words.
 */
function onlyChoiceOfSlot(
  text: string,
  slot: Slot,
  memories: readonly Slotted[],
  isDropped: (value: string) => boolean,
): CurrentItem | undefined {
  if (!ONE_AT_A_TIME.has(slot.slot) || isAdditive(text)) return undefined;
  const holders = memories.filter((m) => m.slots.some((s) => s.slot === slot.slot));
  const [holder] = holders;
  if (holders.length !== 1 || holder!.slots.some((s) => s.value === slot.value)) return undefined;
  // Told as a change, or dropping the tool the memory holds ("went full neovim, uninstalled vscode").
  const held = holder!.slots.find((s) => s.slot === slot.slot)!.value;
  return marksChange(text) || isDropped(held) ? holder!.item : undefined;
}

/**
 * "sold the car, got an ebike", "vendí el auto": a statement dropping a device by its plain noun
 * ends the one current memory of the speaker's device of that kind ("drives a 2016 ford fiesta").
 */
function deviceDropped(options: { dropped: readonly string[]; memories: readonly CurrentItem[] }): CurrentItem | undefined {
  const kinds = new Set(options.dropped.map(deviceKindOfNoun).filter((k) => k !== undefined));
  if (kinds.size === 0) return undefined;
  const holders = options.memories.filter((m) => deviceSlotsOf(m.text).some((d) => kinds.has(d.slot)));
  return holders.length === 1 ? holders[0] : undefined;
}

/**
 * What a batch has decided so far: per scope, what earlier candidates are about to store (newest
 * first, with their vectors), and the stored memories they replace.
 */
export interface OfflineBatch {
  pending: Map<string, Array<{ item: CurrentItem; vector: number[] | null }>>;
  replaced: Set<string>;
}

export function newOfflineBatch(): OfflineBatch {
  return { pending: new Map(), replaced: new Set() };
}

function storedItem(record: MemoryRecord): CurrentItem {
  return { text: record.text, since: Date.parse(record.validFrom), ref: { id: record.id } };
}

/** Cosine below which a memory of the batch is not "similar" (only the reason of a create says so). */
const RELATED = 0.5;

/**
 * The offline decision for one candidate against the current memories of its scope: `stored` (newest
 * first), `similar` (found by vector and text in the store) and what the batch stores before it.
 */
export function judgeInBatch(options: {
  batch: OfflineBatch;
  candidate: Candidate;
  vector: number[] | null;
  stored: readonly MemoryRecord[];
  similar: ReadonlyArray<{ record: MemoryRecord; similarity?: number }>;
  nearDuplicateThreshold: number;
}): OfflineVerdict {
  const { batch, candidate, vector } = options;
  const live = (r: MemoryRecord) => !batch.replaced.has(r.id);
  const mine = batch.pending.get(candidate.scope) ?? [];
  const current = [...mine.map((b) => b.item), ...options.stored.filter(live).map(storedItem)].sort((a, b) => b.since - a.since);
  const similar = [
    ...options.similar.filter((s) => live(s.record)).map((s) => ({ item: storedItem(s.record), similarity: s.similarity })),
    ...mine.flatMap((b) => {
      const similarity = vector && b.vector ? cosineSimilarity(vector, b.vector) : undefined;
      return similarity !== undefined && similarity >= RELATED ? [{ item: b.item, similarity }] : [];
    }),
  ].sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0));
  return decideOffline({
    text: candidate.text,
    statedAt: statedAtOf(candidate),
    current,
    similar,
    nearDuplicateThreshold: options.nearDuplicateThreshold,
    restated: candidate.restated === true,
    untriggered: candidate.untriggered === true,
  });
}

/** After a decision: what it replaces stops being current for the rest of the batch; what it stores starts. */
export function noteInBatch(options: {
  batch: OfflineBatch;
  candidate: Candidate;
  index: number;
  vector: number[] | null;
  verdict: OfflineVerdict;
}): void {
  const { batch, candidate, verdict } = options;
  const scope = candidate.scope;
  if (verdict.kind === 'supersede' && verdict.target) {
    for (const target of [verdict.target, ...(verdict.also ?? [])]) {
      if ('id' in target) batch.replaced.add(target.id);
      else {
        const left = (batch.pending.get(scope) ?? []).filter(
          (b) => !('candidate' in b.item.ref) || b.item.ref.candidate !== target.candidate,
        );
        batch.pending.set(scope, left);
      }
    }
  }
  if (verdict.kind === 'skip') return;
  const item: CurrentItem = { text: candidate.text, since: statedAtOf(candidate), ref: { candidate: options.index } };
  batch.pending.set(scope, [{ item, vector: options.vector }, ...(batch.pending.get(scope) ?? [])]);
}
