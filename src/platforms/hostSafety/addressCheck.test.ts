// Every refused range refuses its first and last address and the IPv4-mapped forms of its IPv4
// addresses; public unicast addresses, at the edges of the refused ranges too, are accepted
// (docs/host-safety.md#refused-addresses).
import t from 'tap';
import { notAnAddress, refusedRangeOf } from './addressCheck.js';
import { refusedIpv4, refusedIpv6 } from './refusedRanges.js';

const ipv4Bits = 32n;
const ipv6Bits = 128n;

function ipv4Number(address: string): bigint {
  return address.split('.').reduce((sum, part) => (sum << 8n) + BigInt(part), 0n);
}

const ipv4Text = (value: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');

function ipv6Number(address: string): bigint {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const groups = (text: string | undefined) => (text ? text.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = tail === undefined ? groups(head) : [...groups(head), ...Array<string>(missing).fill('0'), ...groups(tail)];
  return all.reduce((sum, group) => (sum << 16n) + BigInt(`0x${group}`), 0n);
}

/** All eight groups, uncompressed: a form the resolver may answer too. */
const ipv6Text = (value: bigint) =>
  Array.from({ length: 8 }, (_, index) => ((value >> BigInt(112 - 16 * index)) & 0xffffn).toString(16)).join(':');

/** The first and last address of a range. */
function ends(cidr: string, bits: bigint, toNumber: (address: string) => bigint): [bigint, bigint] {
  const [address, prefix] = cidr.split('/');
  const hostBits = bits - BigInt(prefix!);
  const first = (toNumber(address!) >> hostBits) << hostBits;
  return [first, first + (1n << hostBits) - 1n];
}

t.test('address check - every IPv4 range refuses its first and last address, as IPv4 and IPv4-mapped IPv6', async (t) => {
  for (const range of refusedIpv4) {
    for (const end of ends(range.cidr, ipv4Bits, ipv4Number)) {
      const dotted = ipv4Text(end);
      const refused = refusedRangeOf(dotted);
      t.ok(refused && refused !== notAnAddress, `${dotted} (${range.cidr}) is refused`);
      const mapped = [
        `::ffff:${dotted}`,
        `::ffff:${(end >> 16n).toString(16)}:${(end & 0xffffn).toString(16)}`,
        ipv6Text(0xffff00000000n + end),
      ];
      for (const form of mapped) t.same(refusedRangeOf(form), refused, `${form} is refused as ${dotted} is`);
    }
  }
});

t.test('address check - every IPv6 range refuses its first and last address', async (t) => {
  for (const range of refusedIpv6) {
    for (const end of ends(range.cidr, ipv6Bits, ipv6Number)) {
      const address = ipv6Text(end);
      const refused = refusedRangeOf(address);
      t.ok(refused && refused !== notAnAddress, `${address} (${range.cidr}) is refused`);
    }
  }
});

t.test('address check - each refusal names the most precise range', async (t) => {
  const cases: Array<[string, string]> = [
    ['0.0.0.0', '0.0.0.0/8'],
    ['10.1.2.3', '10.0.0.0/8'],
    ['100.64.0.1', '100.64.0.0/10'],
    ['127.0.0.1', '127.0.0.0/8'],
    ['127.255.255.254', '127.0.0.0/8'],
    ['169.254.169.254', '169.254.169.254/32'],
    ['169.254.1.1', '169.254.0.0/16'],
    ['172.31.255.255', '172.16.0.0/12'],
    ['192.0.0.8', '192.0.0.0/24'],
    ['192.0.2.1', '192.0.2.0/24'],
    ['192.88.99.1', '192.88.99.0/24'],
    ['192.168.1.1', '192.168.0.0/16'],
    ['198.19.0.1', '198.18.0.0/15'],
    ['198.51.100.7', '198.51.100.0/24'],
    ['203.0.113.7', '203.0.113.0/24'],
    ['224.0.0.1', '224.0.0.0/4'],
    ['239.255.255.250', '224.0.0.0/4'],
    ['255.255.255.255', '255.255.255.255/32'],
    ['240.0.0.1', '240.0.0.0/4'],
    ['::', '::/128'],
    ['::1', '::1/128'],
    ['::10.0.0.1', '::/96'],
    ['::127.0.0.1', '::/96'],
    ['::ffff:0:a00:1', '::ffff:0:0:0/96'],
    ['64:ff9b::a00:1', '64:ff9b::/96'],
    ['64:ff9b::8.8.8.8', '64:ff9b::/96'],
    ['64:ff9b:1::1', '64:ff9b:1::/48'],
    ['100::1', '100::/64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::/32'],
    ['2001:2::1', '2001:2::/48'],
    ['2001:10::1', '2001::/23'],
    ['2001:db8::1', '2001:db8::/32'],
    ['2002:a00:1::1', '2002::/16'],
    ['2002:7f00:1::', '2002::/16'],
    ['3fff::1', '3fff::/20'],
    ['fd00:ec2::254', 'fd00:ec2::254/128'],
    ['FD00:EC2::254', 'fd00:ec2::254/128'],
    ['fd12:3456::1', 'fc00::/7'],
    ['fc00::1', 'fc00::/7'],
    ['fe80::1', 'fe80::/10'],
    ['fe80::1%eth0', 'fe80::/10'],
    ['fec0::1', 'fec0::/10'],
    ['ff02::1', 'ff00::/8'],
    ['1::1', '::/3'],
    ['5f00::1', '4000::/2'],
    ['8000::1', '8000::/1'],
    ['::ffff:10.0.0.1', '10.0.0.0/8'],
    ['::ffff:7f00:1', '127.0.0.0/8'],
    ['::ffff:a9fe:a9fe', '169.254.169.254/32'],
    ['0:0:0:0:0:ffff:c0a8:101', '192.168.0.0/16'],
  ];
  for (const [address, cidr] of cases) t.equal(refusedRangeOf(address)?.cidr, cidr, `${address} is refused as ${cidr}`);
});

t.test('address check - public unicast addresses are accepted, at the edges of refused ranges too', async (t) => {
  const publicAddresses = [
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.0.3.0',
    '192.88.98.255',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '203.0.112.255',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '2001:200::',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2003::1',
    '3ffe::1',
    '3fff:1000::',
  ];
  for (const address of publicAddresses) t.equal(refusedRangeOf(address), undefined, `${address} is accepted`);
});

t.test('address check - a text that is not an IP address is refused', async (t) => {
  for (const text of ['', 'example.com', '1.2.3', '256.1.1.1', '::ffff:1.2.3', '010.0.0.1', 'fe80::1%', '[::1]']) {
    t.equal(refusedRangeOf(text), notAnAddress, JSON.stringify(text));
  }
});
