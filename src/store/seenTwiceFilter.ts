// Admits a key to a cache on its second recent sighting (the "doorkeeper" of TinyLFU), so that keys
// read once, such as random searches over a million resources, never enter the cache.
/**
 * A table of hashes, one slot per hash bucket, newest sighting wins. A key read once would cost
 * the cache an insertion, push out entries that are read again and churn the garbage collector.
 * Collisions only change what gets cached, never what a read returns.
 */
export class SeenTwiceFilter {
  private readonly seen: Int32Array;
  private readonly mask: number;

  /** At least `slots` slots (a power of two). */
  constructor(slots: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(2, slots)));
    this.seen = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Whether `key` was seen since its slot last changed hands; it is marked as seen either way. */
  admit(key: string): boolean {
    const hash = fnv1a(key);
    const slot = hash & this.mask;
    if (this.seen[slot] === hash) return true;
    this.seen[slot] = hash;
    return false;
  }
}

/** 32-bit FNV-1a over UTF-16 code units; odd, so an empty slot (0) never matches. */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash | 1;
}
