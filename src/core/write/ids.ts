import { decodeTime, isValid, monotonicFactory } from 'ulid';

// One factory per process: ids made within the same millisecond still increase, so sorting ids
// sorts memories by creation. Across processes ULIDs stay unique (80 random bits).
const nextUlid = monotonicFactory();

/** A new memory id (ULID, 26 Crockford base32 characters). */
export function newId(): string {
  return nextUlid();
}

export function isValidId(id: string): boolean {
  return isValid(id);
}

/** Creation time (ms since epoch) encoded in an id. */
export function idTimestamp(id: string): number {
  return decodeTime(id);
}
