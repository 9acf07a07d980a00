/**
 * A compact set of 64-bit fingerprints (open addressing over a Uint32Array, ~16 bytes per entry
 * at the maximum load) for the L0 seen-index. A `Set<string>` of the same fingerprints costs
 * ~6x more, which matters for sessions with hundreds of thousands of messages. Fingerprints are
 * the first 8 bytes of a base64url sha1 prefix; at 64 bits, a false "seen" among a million
 * messages has a probability around 3e-8.
 */
export class FingerprintSet {
  private table: Uint32Array;
  private mask: number;
  private count = 0;
  /** Slot holding (0, 0) is "empty", so the all-zero fingerprint is tracked separately. */
  private hasZero = false;

  constructor(capacity = 1024) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Uint32Array(size * 2);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count + (this.hasZero ? 1 : 0);
  }

  /** Adds a fingerprint given as base64url text; returns false if it was already present. */
  add(fingerprint: string): boolean {
    const [hi, lo] = decode(fingerprint);
    if (hi === 0 && lo === 0) {
      const had = this.hasZero;
      this.hasZero = true;
      return !had;
    }
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) this.grow();
    return this.insert(hi, lo);
  }

  has(fingerprint: string): boolean {
    const [hi, lo] = decode(fingerprint);
    if (hi === 0 && lo === 0) return this.hasZero;
    let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const h = this.table[slot * 2]!;
      const l = this.table[slot * 2 + 1]!;
      if (h === 0 && l === 0) return false;
      if (h === hi && l === lo) return true;
      slot = (slot + 1) & this.mask;
    }
  }

  private insert(hi: number, lo: number): boolean {
    let slot = (lo ^ Math.imul(hi, 0x9e3779b1)) & this.mask;
    for (;;) {
      const h = this.table[slot * 2]!;
      const l = this.table[slot * 2 + 1]!;
      if (h === 0 && l === 0) {
        this.table[slot * 2] = hi;
        this.table[slot * 2 + 1] = lo;
        this.count += 1;
        return true;
      }
      if (h === hi && l === lo) return false;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    this.mask = old.length - 1;
    this.count = 0;
    for (let i = 0; i < old.length; i += 2) {
      const hi = old[i]!;
      const lo = old[i + 1]!;
      if (hi !== 0 || lo !== 0) this.insert(hi, lo);
    }
  }
}

const scratch = Buffer.alloc(12);

function decode(fingerprint: string): [number, number] {
  scratch.fill(0);
  scratch.write(fingerprint.slice(0, 16), 'base64url');
  return [scratch.readUInt32BE(0) >>> 0, scratch.readUInt32BE(4) >>> 0];
}
