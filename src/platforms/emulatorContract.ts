// The contract between the emulator's server (src/emulator/) and each platform's emulator handler
// (src/platforms/<code>/emulator.ts): it lives beside the platforms, which the emulator imports, never the reverse.
import type { MetricName, ResourceType } from '../model.js';

export interface EmulatorRequest {
  /**
   * The path after the `/<platform>` prefix, e.g. `/users/octocat`; on a platform whose references
   * name their hosts, after `/<platform>/<host>` too.
   */
  path: string;
  /** The server asked, on a platform whose references name their hosts (docs/platforms.md#federated-platforms). */
  host?: string;
  query: URLSearchParams;
  headers: Readonly<Record<string, string>>;
}

export interface EmulatorReply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** The numeric counts, one per datapoint name, which POST /_emulator/counts can move. */
export type CountName = MetricName;

/** Deterministic counts of one emulated resource (docs/operations.md#emulator). */
export type EmulatedCounts = Record<CountName, number> & { verified: boolean };

/**
 * How the handler must answer for one resource. Faults the server answers by itself
 * (HTTP 503, no answer, the 3 s delay) never reach the handler as a mode.
 */
export interface EmulatedResource {
  mode: 'normal' | 'missing' | 'ratelimit' | 'malformed';
  /** Counts should be shown the way the platform rounds them on public pages. */
  rounded: boolean;
  counts: EmulatedCounts;
}

export interface EmulatorContext {
  now: number;
  /**
   * Looks a resource up by the identifier as the platform's API names it (the service's
   * identifier syntax; normalized here). Records server-level faults for this request.
   */
  lookup(type: ResourceType, identifier: string): EmulatedResource;
}

export interface PlatformEmulator {
  /** Answers one GET; undefined means the path is not part of this platform's API. */
  handle(request: EmulatorRequest, context: EmulatorContext): EmulatorReply | undefined;
  /** Answers one POST (a token endpoint, docs/platforms.md#app-tokens); absent: the platform takes none. */
  post?(request: EmulatorRequest & { body: string }, context: EmulatorContext): EmulatorReply | undefined;
}
