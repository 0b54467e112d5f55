// Identifiers of the federated platforms, whose references name the server they live on
// (docs/platforms.md#federated-platforms): accounts `user@host`, posts `user@host:<id>` or
// `host:<id>`. A host is a DNS name; the service tracks it lower-cased, an internationalized
// name as punycode (docs/api.md#federated-identifiers).
import { domainToASCII } from 'node:url';

/** A label as sent: letters and digits of any script, inner hyphens; IDNA checks the rest. */
const label = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
/** The last label starts with a letter, so no IPv4 literal (and no port or IPv6 literal: no ':' or '['). */
const topLabel = '\\p{L}(?:[\\p{L}\\p{N}-]{0,61}[\\p{L}\\p{N}])?';
/** A host of two labels or more: a name on the internet, never `localhost` or another bare name. */
export const hostSyntax = `(?:${label}\\.)+${topLabel}`;
/** A user or community name: ASCII letters, digits, `_`, inner `.` and `-` (Mastodon's, Lemmy's, PeerTube's, Misskey's). */
export const userSyntax = '[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9_])?';
/** The characters a federated identifier may hold somewhere: a 422 names the first other one. */
export const federatedCharacter = /[\p{L}\p{N}_.:@-]/u;
export const maxHostLength = 253;
export const maxUserLength = 64;

/**
 * Special-use names (RFC 6761, RFC 7686, RFC 8375, RFC 9476) and names private networks use:
 * none is a server on the internet, and some resolve to this machine or its network.
 */
const reservedTopLabels: ReadonlySet<string> = new Set([
  'alt',
  'arpa',
  'example',
  'internal',
  'invalid',
  'local',
  'localhost',
  'onion',
  'test',
]);

/**
 * The host as the service tracks and calls it: IDNA-mapped (lower case, punycode), or undefined
 * when IDNA refuses it, it is longer than DNS allows, its top label is all digits (an address in
 * disguise) or it is a special-use name.
 */
export function asciiHost(host: string): string | undefined {
  const ascii = domainToASCII(host);
  if (ascii === '' || ascii.length > maxHostLength) return undefined;
  const labels = ascii.split('.');
  const top = labels.at(-1)!;
  if (labels.some((part) => part.length === 0 || part.length > 63) || /^[0-9]+$/.test(top) || reservedTopLabels.has(top)) return undefined;
  return ascii;
}

/** `asciiHost`, for identifiers the pattern and `refines` accepted (which are mappable). */
const normalizedHost = (host: string) => asciiHost(host) ?? host.toLowerCase();

/** `user@host`: the user lower-cased (the platforms compare names case-insensitively), the host as `asciiHost`. */
export function normalizeAccount(identifier: string): string {
  const at = identifier.indexOf('@');
  return `${identifier.slice(0, at).toLowerCase()}@${normalizedHost(identifier.slice(at + 1))}`;
}

/** `user@host:<id>`: the account part normalized, the post id as sent. */
export function normalizeAccountPost(identifier: string): string {
  const colon = identifier.indexOf(':');
  return `${normalizeAccount(identifier.slice(0, colon))}${identifier.slice(colon)}`;
}

/** `host:<id>`: the host as `asciiHost`, the post id as sent. */
export function normalizeHostPost(identifier: string): string {
  const colon = identifier.indexOf(':');
  return `${normalizedHost(identifier.slice(0, colon))}${identifier.slice(colon)}`;
}

/** The user of a normalized `user@host` or `user@host:<id>`. */
export const userOf = (normalized: string) => normalized.slice(0, normalized.indexOf('@'));

/** The host of a normalized `user@host`, `user@host:<id>` or `host:<id>`. */
export function hostOf(normalized: string): string {
  const colon = normalized.indexOf(':');
  const withoutId = colon < 0 ? normalized : normalized.slice(0, colon);
  return withoutId.slice(withoutId.indexOf('@') + 1);
}

/** The post id of a normalized `user@host:<id>` or `host:<id>`. */
export const postIdOf = (normalized: string) => normalized.slice(normalized.indexOf(':') + 1);

/** Whether the host in an identifier the pattern accepted is one the service can call. */
export const hostIsUsable = (identifier: string) => asciiHost(hostOf(identifier)) !== undefined;

/** The check beyond the pattern every federated rule shares (`IdentifierRule.refines`). */
export const usableHost = {
  accepts: hostIsUsable,
  problem: 'names no server on the internet (an address, a special-use name or a name IDNA refuses)',
};

/** The instructions that open every 422 of a federated account (docs/api.md#identifier-hints). */
export const federatedAccountHint = 'send the plain user@server, not the URL';
