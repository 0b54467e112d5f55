// How a search asks the resource side for work after it has answered (docs/architecture.md,
// "Reads are reads"). In one process the resource host implements it; with edge threads a
// messenger to the resource thread does.
export interface ResourceDemand {
  /** The answer found these resources unknown, or due an eager refresh, at `at`. */
  wanted(keys: readonly string[], at: number): void;
}
