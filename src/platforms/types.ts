// What one platform folder provides (docs/adding-a-platform.md). Adding a platform is its
// folder, its code in src/model.ts and one line in definitions.ts.
import type { CallBudget, Collector, PlatformCode, ResourceRef, ResourceType } from '../model.js';
import type { UpstreamHttp } from './http.js';

export interface IdentifierRule {
  /** The platform's address syntax for the identifier as sent (docs/api.md#a-5); anchored. */
  pattern: RegExp;
  /**
   * A check beyond the pattern, for what a regular expression cannot say (a host name IDNA
   * refuses): `problem` ends the 422 of an identifier the pattern accepts and `accepts` refuses.
   */
  refines?: { accepts(identifier: string): boolean; problem: string };
  /** Shortest and longest identifier the pattern accepts; a 422 names them. */
  minLength: number;
  maxLength: number;
  /** One character the pattern can accept somewhere: a 422 names the first one it cannot. */
  allowedCharacter: RegExp;
  /** What to send, in words: the first part of every 422 hint (docs/api.md#identifier-hints). */
  hint: string;
  /** The form in words, in brackets after the hint: characters, and for posts what each part is. */
  syntax: string;
  /** For `<author>:<id>` posts, the author part as the hint names it (`<handle>`): a 422 says when it is missing. */
  authorPart?: string;
  /** The key the service tracks the resource under (docs/api.md#a-8). */
  normalize(identifier: string): string;
  /** The part emulator conventions look at (docs/operations.md#emulator): the handle or owner of a post. */
  namePart(normalized: string): string;
  /**
   * Identifiers the tests that go over every platform use (the list: platformCodes in
   * src/model.ts and src/platforms/definitions.ts; docs/adding-a-platform.md): an unremarkable
   * valid one, one the emulator treats as missing and one as flaky (by its name part), and
   * refused forms users are likely to send (the URL, a near miss).
   */
  examples: { valid: string; missing: string; flaky: string; invalid: readonly string[] };
}

export interface CollectorContext {
  /**
   * The platform's API root: the real host, or the emulator's `/<platform>` prefix; empty for a
   * platform whose references name their hosts, which reaches them through `hostUrl`.
   */
  baseUrl: string;
  /** Further upstream roots by name (`realOrigins`); against the emulator each is its prefix too. */
  origins: Readonly<Record<string, string>>;
  /**
   * The root of a host a reference names (docs/platforms.md#federated-platforms): `https://HOST`,
   * or under the emulator `<emulator>/<platform>/HOST`. Only normalized hosts are passed.
   */
  hostUrl(host: string): string;
  /** Credentials by environment variable name; against the emulator every one is set. */
  credentials: Readonly<Record<string, string | undefined>>;
  http: UpstreamHttp;
  now(): number;
}

export type { Collector } from '../model.js';

/** One platform folder's definition; `Code` is its code (its key in definitions.ts). */
export interface PlatformDefinition<Code extends string = PlatformCode> {
  code: Code;
  identifiers: Partial<Record<ResourceType, IdentifierRule>>;
  /** The API root; absent when references name their hosts (`hostsNamedByCallers`). */
  realBaseUrl?: string;
  /** Further hosts the collector reads, by name (e.g. a public page host beside the API). */
  realOrigins?: Readonly<Record<string, string>>;
  /** Environment variables the real API cannot be used without. */
  requiredCredentials: readonly string[];
  /**
   * When only some references need the required credentials: which ones, in words and as a
   * test. Without their credentials the platform still collects the others
   * (docs/platforms.md#credentials-a-platform-can-do-without). Absent: every reference needs them.
   */
  credentialScope?: { needing: string; needs(ref: ResourceRef): boolean };
  /**
   * The collector connects to hosts that references name (`user@host`); under `--upstream real`
   * its calls go through the host guard (docs/host-safety.md#which-calls).
   */
  hostsNamedByCallers?: true;
  /** Environment variables used when present (e.g. a token that raises a rate limit). */
  optionalCredentials: readonly string[];
  /** The budget with every credential set; per upstream: the platform's, or on a federated platform each server's (docs/platforms.md#each-server-its-own-upstream). */
  budget: CallBudget;
  /**
   * The budget while an optional credential is missing, for a platform whose anonymous limit is
   * lower than its credentialed one; absent: `budget` either way
   * (docs/platforms.md#credentials-a-platform-can-do-without).
   */
  anonymousBudget?: CallBudget;
  createCollector(context: CollectorContext): Collector;
}
