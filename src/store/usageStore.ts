// Monthly usage per account. The server is the only writer; the in-memory count it keeps
// is the truth for admission and every change is written through (group-committed by lmdb).
import type { Databases } from './environment.js';

export class UsageStore {
  constructor(private readonly dbs: Databases) {}

  used(account: string, month: string): number {
    return (this.dbs.usage.get([account, month]) as number | undefined) ?? 0;
  }

  /** Resolves once the count is durable (fdatasync'd with whatever else lmdb batched). */
  write(account: string, month: string, count: number): Promise<boolean> {
    return this.dbs.usage.put([account, month], count);
  }
}
