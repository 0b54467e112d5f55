// What a URL the guard calls must look like (docs/host-safety.md#names-not-addresses): https,
// on its default port, without user info, to a DNS name. The identifier rules refuse the rest
// already; the guard refuses it again, so that no collector's mistake reaches a socket.
import { isIP } from 'node:net';
import { HostRefused } from './hostRefused.js';

// RFC 1123 labels, lower case as URL parsing leaves them. At least two labels: a name without a
// dot is completed by the resolver's search list, never a server on the internet; a last label of
// digits is an address (RFC 3696 2).
const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const dnsName = new RegExp(`^(?=.{1,253}$)(?:${label}\\.)+${label}$`);

export const isDnsName = (text: string) => dnsName.test(text) && !/\.\d+$/.test(text);

/** The URL's host name, or HostRefused saying what is wrong with the URL. */
export function checkedTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HostRefused('not a URL');
  }
  if (parsed.protocol !== 'https:') throw new HostRefused(`${parsed.protocol}// is not https`);
  if (parsed.username !== '' || parsed.password !== '') throw new HostRefused('a URL with user info');
  if (parsed.port !== '') throw new HostRefused(`a URL with a port (${parsed.port})`);
  return checkedHostName(parsed.hostname);
}

/** `host` when it is a DNS name; HostRefused for an IP literal or anything else. */
export function checkedHostName(host: string): string {
  if (host.startsWith('[') || isIP(host) !== 0) throw new HostRefused(`${host} is an IP address, not a host name`);
  if (!isDnsName(host)) throw new HostRefused(`${host} is not a DNS host name`);
  return host;
}
