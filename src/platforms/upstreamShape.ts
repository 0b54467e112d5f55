// The shape of a platform's upstream requests, as each folder's `upstreamShape.ts` states it for
// the security tests (test/security/upstreamTargets.ts; docs/adding-a-platform.md#checklist).
import type { ResourceType } from '../model.js';
import { handlePart, idPart } from './identifiers.js';

/** One identifier (or part of one) seen in an upstream request: `<slot>=<decoded value>`. */
export type Part = string;

/**
 * Which identifier parts a request target carries, and which parts a valid identifier must turn
 * into. A target that fits none of its platform's shapes, or carries an unexpected query
 * parameter, is an identifier that escaped its place in the URL.
 */
export interface UpstreamShape {
  /** The parts a request (path after `/<platform>`, query) carries, or undefined when it fits no shape. */
  read(path: string, query: URLSearchParams): Part[] | undefined;
  /** The parts a valid identifier of `type` must turn into upstream, from its normalized form. */
  expected(type: ResourceType, normalized: string): Part[];
}

export const part = (slot: string, value: string): Part => `${slot}=${value}`;

/** The path segment as the upstream decodes it; a `%2F` would come back as `/` and not match. */
export const segment = (raw: string) => decodeURIComponent(raw);

/** Query parameters must be exactly `fixed` plus the named variable ones, each present once. */
export function onlyParams(query: URLSearchParams, fixed: Record<string, string>, variable: string[]): boolean {
  const names = [...query.keys()].sort();
  const wanted = [...Object.keys(fixed), ...variable].sort();
  if (names.join('&') !== wanted.join('&')) return false;
  return Object.entries(fixed).every(([name, value]) => query.get(name) === value);
}

/** `a,b,c` lists (ids, usernames): none of the identifiers may hold a comma. */
export const list = (query: URLSearchParams, name: string) => query.get(name)!.split(',');

/** The two parts of a `<handle>:<id>` post. */
export const postParts = (normalized: string, handleSlot: string, idSlot: string) => [
  part(handleSlot, handlePart(normalized)),
  part(idSlot, idPart(normalized)),
];

/** Credentials the emulated collectors are given (src/platforms/collectors.ts). */
export const emulatorCredential = 'emulator';
