// How a search asks the resource side for work after it has answered
// (docs/architecture.md#reads-are-reads): the resource host, or from an edge thread its DemandMessenger.
export interface ResourceDemand {
  /** The answer found these resources unknown, or due an eager refresh, at `at`. */
  wanted(keys: readonly string[], at: number): void;
}
