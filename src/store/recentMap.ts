// A bounded map of recently used entries in two generations, every operation O(1); evicting from the
// front of a single Map is not (V8 skips its deleted slots on every keys().next()).
/**
 * Entries go to the young generation; when it is full the old one is dropped whole and the young
 * one becomes old. A hit in the old generation moves back to the young one.
 */
export class RecentMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();

  /** Holds between `generationSize` and twice as many entries. */
  constructor(private readonly generationSize: number) {}

  get(key: K): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
  }
}
