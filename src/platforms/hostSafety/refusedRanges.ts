// The addresses a host named by a caller may never resolve to (docs/host-safety.md#refused-addresses):
// every range that is not a public unicast address on the internet; the doc gives each one's
// RFC and why it is refused. More specific rows come first, so that an address is refused with
// the most precise reason.

export interface RefusedRange {
  /** The range, `address/prefix`. */
  cidr: string;
  /** What the range is, as a refusal says it: `resolves to 10.0.0.5, <what> (10.0.0.0/8)`. */
  what: string;
}

/**
 * IPv4. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) is the IPv4 address
 * itself on the wire, and is checked against these rows (src/platforms/hostSafety/addressCheck.ts).
 */
export const refusedIpv4: readonly RefusedRange[] = [
  { cidr: '0.0.0.0/8', what: 'a "this network" address' },
  { cidr: '10.0.0.0/8', what: 'a private address' },
  { cidr: '100.64.0.0/10', what: 'a carrier-grade NAT address' },
  { cidr: '127.0.0.0/8', what: 'a loopback address' },
  { cidr: '169.254.169.254/32', what: 'the cloud metadata service' },
  { cidr: '169.254.0.0/16', what: 'a link-local address' },
  { cidr: '172.16.0.0/12', what: 'a private address' },
  { cidr: '192.0.0.0/24', what: 'an IETF protocol assignment' },
  { cidr: '192.0.2.0/24', what: 'a documentation address' },
  { cidr: '192.88.99.0/24', what: 'a 6to4 relay address' },
  { cidr: '192.168.0.0/16', what: 'a private address' },
  { cidr: '198.18.0.0/15', what: 'a benchmarking address' },
  { cidr: '198.51.100.0/24', what: 'a documentation address' },
  { cidr: '203.0.113.0/24', what: 'a documentation address' },
  { cidr: '224.0.0.0/4', what: 'a multicast address' },
  { cidr: '255.255.255.255/32', what: 'the broadcast address' },
  { cidr: '240.0.0.0/4', what: 'a reserved address' },
];

/** IPv6, but for the IPv4-mapped range ::ffff:0:0/96 (checked as IPv4, above). */
export const refusedIpv6: readonly RefusedRange[] = [
  { cidr: '::/128', what: 'the unspecified address' },
  { cidr: '::1/128', what: 'the loopback address' },
  { cidr: '::/96', what: 'an IPv4-compatible address, deprecated' },
  { cidr: '::ffff:0:0:0/96', what: 'an IPv4-translated address' },
  { cidr: '64:ff9b::/96', what: 'a NAT64 address' },
  { cidr: '64:ff9b:1::/48', what: 'a local NAT64 address' },
  { cidr: '100::/64', what: 'a discard-only address' },
  { cidr: '2001::/32', what: 'a Teredo tunnel address' },
  { cidr: '2001:2::/48', what: 'a benchmarking address' },
  { cidr: '2001::/23', what: 'an IETF protocol assignment' },
  { cidr: '2001:db8::/32', what: 'a documentation address' },
  { cidr: '2002::/16', what: 'a 6to4 tunnel address' },
  { cidr: '3fff::/20', what: 'a documentation address' },
  { cidr: 'fd00:ec2::254/128', what: 'the cloud metadata service' },
  { cidr: 'fc00::/7', what: 'a unique local address' },
  { cidr: 'fe80::/10', what: 'a link-local address' },
  { cidr: 'fec0::/10', what: 'a site-local address, deprecated' },
  { cidr: 'ff00::/8', what: 'a multicast address' },
  // Global unicast is allocated from 2000::/3 alone (RFC 4291 2.4): the rest is not on the internet.
  { cidr: '::/3', what: 'an address outside global unicast' },
  { cidr: '4000::/2', what: 'an address outside global unicast' },
  { cidr: '8000::/1', what: 'an address outside global unicast' },
];
