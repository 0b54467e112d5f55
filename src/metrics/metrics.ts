// What the service tells its metrics as it works (docs/operations-endpoints.md#metrics). The
// HTTP routes and the collection loop take an optional `Metrics`: wiring passes the Prometheus
// recorder when the operator asked for a metrics address, and nothing otherwise.
import type { CollectionOutcome, PlatformCode } from '../model.js';

/** Why a request was refused before its body was read (docs/operations-endpoints.md#metrics). */
export type RefusalReason =
  | 'missing_token'
  | 'invalid_token'
  | 'quota_exhausted'
  | 'rate_limited'
  | 'no_account_room'
  | 'account_suspended';

/** What the HTTP routes tell: an edge thread's recorder has only these (./edgeMetrics.ts). */
export interface RequestMetrics {
  /**
   * An answer was written on `route` (the route's path, never the request's URL) with `status`
   * as written ('200 OK'), `seconds` after the request arrived.
   */
  requestAnswered(route: string, status: string, seconds: number): void;
  admissionRefused(reason: RefusalReason): void;
}

export interface Metrics extends RequestMetrics {
  /** A collection ended and its outcome was handed to the resource side. */
  collectionEnded(platform: PlatformCode, outcome: CollectionOutcome['kind']): void;
}
