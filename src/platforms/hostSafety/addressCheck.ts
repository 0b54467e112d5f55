// Classifies one resolved address: the refused range it falls in, or none for a public unicast
// address (docs/host-safety.md#refused-addresses). Anything that is not an IP address is
// refused: the check fails closed.
import { BlockList, isIP } from 'node:net';
import { type RefusedRange, refusedIpv4, refusedIpv6 } from './refusedRanges.js';

interface Row {
  range: RefusedRange;
  list: BlockList;
}

function rowsOf(ranges: readonly RefusedRange[], type: 'ipv4' | 'ipv6'): Row[] {
  return ranges.map((range) => {
    const [address, prefix] = range.cidr.split('/');
    const list = new BlockList();
    list.addSubnet(address!, Number(prefix), type);
    return { range, list };
  });
}

const ipv4Rows = rowsOf(refusedIpv4, 'ipv4');
const ipv6Rows = rowsOf(refusedIpv6, 'ipv6');
const ipv4Mapped = new BlockList();
ipv4Mapped.addSubnet('::ffff:0:0', 96, 'ipv6');

/** What a resolver answer that is not an IP address is refused as. */
export const notAnAddress: RefusedRange = { cidr: 'no range', what: 'not an IP address' };

/**
 * The refused range `address` is in, or undefined when it is a public unicast address.
 * BlockList matches across families: an IPv6 rule covering ::ffff:0:0/96 (such as ::/3) would
 * match every IPv4 address, and an IPv4 rule matches its IPv4-mapped forms. So IPv4 addresses
 * and IPv4-mapped ones meet the IPv4 rows only, other IPv6 addresses the IPv6 rows only.
 */
export function refusedRangeOf(address: string): RefusedRange | undefined {
  const family = rulesFamily(address);
  if (family === undefined) return notAnAddress;
  const rows = family === 'ipv4' ? ipv4Rows : ipv6Rows;
  return rows.find((row) => inList(row.list, address))?.range;
}

/** Whose rules `address` meets: IPv4 for IPv4 and IPv4-mapped IPv6 addresses; undefined for a text that is no address. */
export function rulesFamily(address: string): 'ipv4' | 'ipv6' | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  return family === 4 || ipv4Mapped.check(address, 'ipv6') ? 'ipv4' : 'ipv6';
}

/** Whether a list holds `address`, as written (BlockList wants the written family). */
export const inList = (list: BlockList, address: string) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
