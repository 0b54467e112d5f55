// Dedupe in flight: a resource already queued or being collected is not queued again.
// The key is released only once the outcome is persisted, so a due scan in between
// cannot start a second collection.
import { filter, type MonoTypeOperatorFunction } from 'rxjs';

export class InFlight {
  private readonly keys = new Set<string>();

  admit(): MonoTypeOperatorFunction<string> {
    return filter((key) => {
      if (this.keys.has(key)) return false;
      this.keys.add(key);
      return true;
    });
  }

  release(key: string): void {
    this.keys.delete(key);
  }

  get size(): number {
    return this.keys.size;
  }
}
