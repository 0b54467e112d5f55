// The operator's exceptions (`--allow-private-hosts`, docs/host-safety.md#the-allow-list): host
// names whose addresses are not checked, and address ranges that are allowed for any host.
import { BlockList, isIP } from 'node:net';
import { inList, rulesFamily } from './addressCheck.js';
import { isDnsName } from './hostName.js';

export interface HostAllowList {
  /** The entries as given, for the start-up log. */
  entries: readonly string[];
  allows(host: string, address: string): boolean;
}

export const nothingAllowed: HostAllowList = { entries: [], allows: () => false };

/**
 * A comma-separated list of host names and address ranges (`10.0.0.0/8`, `fd00::/8`; an address
 * alone is a range of one). Throws an Error naming the first entry it cannot read.
 */
export function parseAllowList(text: string): HostAllowList {
  const entries = text
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const hosts = new Set<string>();
  // One list per family, checked by the address's own family: a range that covers the
  // IPv4-mapped block (::/0) would otherwise allow every IPv4 address (src/platforms/hostSafety/addressCheck.ts).
  const ipv4 = new BlockList();
  const ipv6 = new BlockList();
  for (const entry of entries) {
    if (isDnsName(entry)) {
      hosts.add(entry);
      continue;
    }
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    if (family === 0 || rest.length > 0 || !(length >= 0 && length <= bits)) {
      throw new Error(`'${entry}' is neither a host name nor an address range (such as 10.0.0.0/8 or fd00::/8)`);
    }
    if (family === 4) ipv4.addSubnet(address, length, 'ipv4');
    else ipv6.addSubnet(address, length, 'ipv6');
  }
  return {
    entries,
    allows(host, address) {
      if (hosts.has(host)) return true;
      const family = rulesFamily(address);
      return family !== undefined && inList(family === 'ipv4' ? ipv4 : ipv6, address);
    },
  };
}
