// The one error the host guard throws (docs/host-safety.md#what-a-refusal-is): its message is
// the collection's failure reason as it stands, `host refused: ...` (src/platforms/upstream.ts).
import type { RefusedRange } from './refusedRanges.js';

export class HostRefused extends Error {
  override name = 'HostRefused';

  constructor(why: string) {
    super(`host refused: ${why}`);
  }
}

export const addressRefused = (address: string, range: RefusedRange) =>
  new HostRefused(`resolves to ${address}, ${range.what} (${range.cidr})`);
