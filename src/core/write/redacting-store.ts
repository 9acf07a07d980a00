/**
 * A memory store whose every write is redacted: `insert`, `update` and a rebuild's `insert` pass
 * each record through `redactMemoryRecord` (text, tags, source fields). Wrapping the store once
 * (in `MemoryEngine`) covers every path that writes memories — remember, import, update, distill,
 * revert, re-embed — including paths added later. Everything else is forwarded untouched.
 */
import type { StoredMemory } from '../../spec/memory-record.js';
import type { MemoryStoreV1, RebuildHandle } from '../../spec/memory-store.js';
import { redactMemoryRecord } from './redact-record.js';

const WRAPPED = Symbol.for('strata.redactingStore');

const redactAll = (records: StoredMemory[]): StoredMemory[] => records.map((r) => redactMemoryRecord(r));

function redactingRebuild(handle: RebuildHandle): RebuildHandle {
  return {
    insert: (options) => handle.insert({ ...options, records: redactAll(options.records) }),
    commit: () => handle.commit(),
    abort: () => handle.abort(),
  };
}

export function redactingStore(store: MemoryStoreV1): MemoryStoreV1 {
  if ((store as unknown as Record<symbol, unknown>)[WRAPPED]) return store;
  return new Proxy(store, {
    get(target, prop) {
      if (prop === WRAPPED) return true;
      if (prop === 'insert')
        return (options: { records: StoredMemory[] }) => target.insert({ ...options, records: redactAll(options.records) });
      if (prop === 'update')
        return (options: { records: StoredMemory[] }) => target.update({ ...options, records: redactAll(options.records) });
      if (prop === 'beginRebuild') {
        return async (options: Parameters<MemoryStoreV1['beginRebuild']>[0]) => redactingRebuild(await target.beginRebuild(options));
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
