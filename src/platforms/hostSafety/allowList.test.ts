// `--allow-private-hosts` read (docs/host-safety.md#the-allow-list): host names and ranges,
// case and spaces forgiven, anything else named in the error.
import t from 'tap';
import { nothingAllowed, parseAllowList } from './allowList.js';

t.test('allow-list - host names match exactly, ranges by address, an address alone is a range of one', async (t) => {
  const list = parseAllowList(' Social.Home.Example ,10.0.0.0/8,, 192.168.1.10 ,fd00::/8, ::1');
  t.same(list.entries, ['social.home.example', '10.0.0.0/8', '192.168.1.10', 'fd00::/8', '::1']);
  t.ok(list.allows('social.home.example', '127.0.0.1'), 'the named host, at any address');
  t.notOk(list.allows('home.example', '127.0.0.1'), 'not its parent');
  t.notOk(list.allows('x.social.home.example', '127.0.0.1'), 'nor a name under it');
  t.ok(list.allows('other.example', '10.200.0.1'));
  t.ok(list.allows('other.example', '::ffff:10.200.0.1'), 'an IPv4 range covers its IPv4-mapped forms');
  t.ok(list.allows('other.example', '192.168.1.10'));
  t.notOk(list.allows('other.example', '192.168.1.11'));
  t.ok(list.allows('other.example', 'fd12::1'));
  t.ok(list.allows('other.example', '::1'));
  t.notOk(list.allows('other.example', '::2'));
  t.notOk(list.allows('other.example', '127.0.0.1'));
  t.notOk(list.allows('other.example', 'not an address'));
});

t.test('allow-list - an IPv6 range never covers IPv4 addresses', async (t) => {
  const list = parseAllowList('::/0');
  t.ok(list.allows('other.example', 'fd00::1'));
  t.notOk(list.allows('other.example', '10.0.0.1'), 'BlockList alone would: ::/0 holds ::ffff:0:0/96');
  t.notOk(list.allows('other.example', '::ffff:10.0.0.1'));
});

t.test('allow-list - empty allows nothing', async (t) => {
  for (const text of ['', ' , ']) t.same(parseAllowList(text).entries, []);
  t.notOk(nothingAllowed.allows('social.example', '10.0.0.1'));
});

t.test('allow-list - an entry that is neither a host name nor a range is named', async (t) => {
  for (const entry of [
    '10.0.0.0/33',
    '10.0.0.0/',
    'fd00::/129',
    '10.0.0.0/8/8',
    '10.0.0.0/-1',
    '*.example.org',
    'https://social.example',
    'social.example:443',
    'localhost',
    '10.0.0',
  ]) {
    t.throws(() => parseAllowList(`social.example,${entry}`), {
      message: `'${entry}' is neither a host name nor an address range (such as 10.0.0.0/8 or fd00::/8)`,
    });
  }
});
