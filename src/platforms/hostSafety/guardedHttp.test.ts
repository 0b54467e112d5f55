// The host guard's client with a resolver the test controls (docs/host-safety.md): every refused
// range, rebinding, http, IP literals, ports and user info are refused before any connection
// (the dial is counted); an allowed call connects to the checked address under the host's name;
// redirects, bodies and time are capped as on every upstream call. No packet leaves this
// machine: the test's dial fails, or connects to a loopback server whatever the address.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import t, { type Test } from 'tap';
import type { Connector } from '../http.js';
import { failed } from '../../model.js';
import { settle } from '../upstream.js';
import { parseAllowList } from './allowList.js';
import { createGuardedHttp, type GuardedHttpOptions } from './guardedHttp.js';
import { type Resolver, systemResolver } from './guardedConnector.js';
import { refusedRangeOf } from './addressCheck.js';
import { addressRefused, HostRefused } from './hostRefused.js';
import { refusedIpv4, refusedIpv6 } from './refusedRanges.js';

const publicAddress = '93.184.215.14';
const host = 'social.example';

interface Dialed {
  address: string;
  servername: string | undefined;
}

/** A resolver answering `answers` in turn (the last one again once they run out), counting its calls. */
function scriptedResolver(...answers: Array<readonly string[]>) {
  const asked: string[] = [];
  const resolve: Resolver = async (name) => {
    asked.push(name);
    return answers[Math.min(asked.length, answers.length) - 1]!;
  };
  return { resolve, asked };
}

/** A dial that records the address and name it was given and fails: nothing is sent anywhere. */
function failingDial() {
  const dialed: Dialed[] = [];
  const dial: Connector = (options, callback) => {
    dialed.push({ address: options.hostname, servername: options.servername });
    callback(Object.assign(new Error('test dial: no network here'), { code: 'ENETUNREACH' }), null);
  };
  return { dial, dialed };
}

/** A dial that records, then connects to a loopback server whatever the address, speaking plain HTTP. */
function loopbackDial(port: number) {
  const dialed: Dialed[] = [];
  const dial: Connector = (options, callback) => {
    dialed.push({ address: options.hostname, servername: options.servername });
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => callback(null, socket));
    socket.once('error', (error) => callback(error, null));
  };
  return { dial, dialed };
}

async function loopbackServer(t: Test, answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<number> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

function guarded(t: Test, options: GuardedHttpOptions) {
  const http = createGuardedHttp(options);
  t.teardown(() => http.close());
  return http;
}

const get = (http: ReturnType<typeof createGuardedHttp>, url: string) => http.get(url, {}, AbortSignal.timeout(5_000));

/** The first address of a range. */
const firstOf = (cidr: string) => cidr.split('/')[0]!;

t.test('host guard - every refused range is refused before any connection, IPv4-mapped forms included', async (t) => {
  const samples = [
    ...refusedIpv4.flatMap((range) => [firstOf(range.cidr), `::ffff:${firstOf(range.cidr)}`]),
    ...refusedIpv6.map((range) => firstOf(range.cidr)),
  ];
  for (const address of samples) {
    const { resolve, asked } = scriptedResolver([address]);
    const { dial, dialed } = failingDial();
    const http = guarded(t, { resolve, dial });
    const error = await get(http, `https://${host}/api`).catch((caught: unknown) => caught);
    t.ok(error instanceof HostRefused, `${address} is a refusal`);
    // Which range each address is refused as is addressCheck.test.ts's; here, that it is said.
    t.equal((error as Error).message, addressRefused(address, refusedRangeOf(address)!).message);
    t.same(asked, [host], 'the name was resolved once');
    t.same(dialed, [], 'no connection was attempted');
  }
});

t.test('host guard - a refusal is the collection failure, its reason as it stands, never not found', async (t) => {
  const { resolve } = scriptedResolver(['10.0.0.5']);
  const { dial, dialed } = failingDial();
  const http = guarded(t, { resolve, dial });
  const outcome = await settle(async () => {
    await get(http, `https://${host}/api/v1/accounts/lookup?acct=someone`);
    throw new Error('the call was answered');
  });
  t.same(outcome, failed('host refused: resolves to 10.0.0.5, a private address (10.0.0.0/8)'));
  t.same(dialed, []);
});

t.test('host guard - one refused address among public ones refuses the name', async (t) => {
  for (const answer of [
    [publicAddress, '127.0.0.1'],
    ['fd00::1', '2606:4700:4700::1111'],
    [publicAddress, '169.254.169.254'],
  ]) {
    const { resolve } = scriptedResolver(answer);
    const { dial, dialed } = failingDial();
    await t.rejects(get(guarded(t, { resolve, dial }), `https://${host}/`), HostRefused, answer.join(', '));
    t.same(dialed, [], 'no connection was attempted');
  }
});

t.test('host guard - a rebinding resolver, public first and private next, never gets its private answer connected to', async (t) => {
  const { resolve, asked } = scriptedResolver([publicAddress], ['10.0.0.5']);
  const { dial, dialed } = failingDial();
  const http = guarded(t, { resolve, dial });
  await t.rejects(get(http, `https://${host}/first`), { code: 'ENETUNREACH' }, 'the public answer is dialed (and fails here)');
  t.same(dialed, [{ address: publicAddress, servername: host }], 'the socket goes to the address checked, TLS to the name');
  t.same(asked, [host], 'one resolution for the check and the connection');
  await t.rejects(get(http, `https://${host}/second`), { message: /^host refused: resolves to 10\.0\.0\.5, a private address/ });
  t.same(dialed, [{ address: publicAddress, servername: host }], 'the private answer is never dialed');
});

t.test('host guard - the addresses are dialed in the resolver order until one connects, each one checked', async (t) => {
  const { resolve } = scriptedResolver(['2606:4700:4700::1111', publicAddress]);
  const { dial, dialed } = failingDial();
  await t.rejects(get(guarded(t, { resolve, dial }), `https://${host}/`), { code: 'ENETUNREACH' });
  t.same(
    dialed.map(({ address }) => address),
    ['2606:4700:4700::1111', publicAddress],
  );
});

t.test('host guard - http, IP literals, ports, user info and names that are no DNS name are refused before resolving', async (t) => {
  const refused: Array<[string, RegExp]> = [
    [`http://${host}/`, /^host refused: http:\/\/ is not https$/],
    [`ftp://${host}/`, /is not https$/],
    ['https://10.0.0.1/', /^host refused: 10\.0\.0\.1 is an IP address, not a host name$/],
    [`https://${publicAddress}/`, /is an IP address/],
    ['https://[::1]/', /^host refused: \[::1\] is an IP address/],
    ['https://[::ffff:7f00:1]/', /is an IP address/],
    ['https://2130706433/', /^host refused: 127\.0\.0\.1 is an IP address/],
    ['https://0x7f.1/', /^host refused: 127\.0\.0\.1 is an IP address/],
    [`https://${host}:8443/`, /^host refused: a URL with a port \(8443\)$/],
    [`https://someone@${host}/`, /^host refused: a URL with user info$/],
    [`https://someone:secret@${host}/`, /a URL with user info/],
    ['https://localhost/', /^host refused: localhost is not a DNS host name$/],
    [`https://${host}./`, /is not a DNS host name/],
    ['https://under_score.example/', /is not a DNS host name/],
    ['https://-dash.example/', /^host refused: -dash\.example is not a DNS host name$/],
    ['not a url', /^host refused: not a URL$/],
  ];
  for (const [url, message] of refused) {
    const { resolve, asked } = scriptedResolver([publicAddress]);
    const { dial, dialed } = failingDial();
    await t.rejects(get(guarded(t, { resolve, dial }), url), { name: 'HostRefused', message }, url);
    t.same([asked, dialed], [[], []], `${url}: nothing resolved, nothing dialed`);
  }
});

t.test('host guard - an international name is resolved and dialed as its punycode form', async (t) => {
  const { resolve, asked } = scriptedResolver([publicAddress]);
  const { dial, dialed } = failingDial();
  await t.rejects(get(guarded(t, { resolve, dial }), 'https://bücher.example/'), { code: 'ENETUNREACH' });
  t.same(asked, ['xn--bcher-kva.example']);
  t.same(dialed, [{ address: publicAddress, servername: 'xn--bcher-kva.example' }]);
});

t.test('host guard - a name that resolves to no address is refused', async (t) => {
  const { resolve } = scriptedResolver([]);
  const { dial, dialed } = failingDial();
  await t.rejects(get(guarded(t, { resolve, dial }), `https://${host}/`), { message: `host refused: ${host} resolves to no address` });
  t.same(dialed, []);
});

t.test('host guard - the allow-list lets a named host or an address range through, nothing else', async (t) => {
  const allowList = parseAllowList('Social.Example, 192.168.7.0/24, fd00:1::/32');
  const cases: Array<[string, string, boolean]> = [
    [host, '10.0.0.5', true],
    [host, '127.0.0.1', true],
    ['other.example', '192.168.7.20', true],
    ['other.example', '::ffff:192.168.7.20', true],
    ['other.example', 'fd00:1::5', true],
    ['other.example', '192.168.8.1', false],
    ['other.example', 'fd00:2::5', false],
    ['other.example', '10.0.0.5', false],
  ];
  for (const [name, address, allowed] of cases) {
    const { resolve } = scriptedResolver([address]);
    const { dial, dialed } = failingDial();
    const expected = allowed ? { code: 'ENETUNREACH' } : HostRefused;
    await t.rejects(get(guarded(t, { resolve, dial, allowList }), `https://${name}/`), expected, `${name} at ${address}`);
    t.same(dialed, allowed ? [{ address, servername: name }] : [], allowed ? 'dialed' : 'not dialed');
  }
});

t.test('host guard - a redirect is an answer: returned, not followed', async (t) => {
  const port = await loopbackServer(t, (_, response) => {
    response.writeHead(302, { location: 'https://elsewhere.example/landing' }).end();
  });
  const { resolve, asked } = scriptedResolver([publicAddress]);
  const { dial, dialed } = loopbackDial(port);
  const answer = await get(guarded(t, { resolve, dial }), `https://${host}/moved`);
  t.equal(answer.status, 302);
  t.equal(answer.headers.location, 'https://elsewhere.example/landing');
  t.same(asked, [host], 'the other host is never resolved');
  t.same(dialed, [{ address: publicAddress, servername: host }], 'one connection, to the checked address');
});

t.test('host guard - a body over the cap fails, declared or chunked', async (t) => {
  const port = await loopbackServer(t, (request, response) => {
    if (request.url === '/declared') response.setHeader('content-length', 2_048);
    response.end(Buffer.alloc(2_048, 'a'));
  });
  const { resolve } = scriptedResolver([publicAddress]);
  const http = guarded(t, { resolve, dial: loopbackDial(port).dial, maxBodyBytes: 1_024 });
  for (const path of ['/declared', '/chunked']) {
    await t.rejects(get(http, `https://${host}${path}`), { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' }, path);
  }
});

t.test('host guard - an answer that does not arrive in time fails, however slowly it trickles', async (t) => {
  const port = await loopbackServer(t, (request, response) => {
    if (request.url === '/silent') return;
    response.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => response.write(' '), 20);
    response.once('close', () => clearInterval(drip));
  });
  const { resolve } = scriptedResolver([publicAddress]);
  const http = guarded(t, { resolve, dial: loopbackDial(port).dial, answerTimeoutMs: 300 });
  for (const path of ['/silent', '/trickle']) {
    await t.rejects(get(http, `https://${host}${path}`), { message: 'no answer within 300 ms' }, path);
  }
});

t.test('host guard - a dial that throws fails the call, nothing else', async (t) => {
  const { resolve } = scriptedResolver([publicAddress]);
  const dial: Connector = () => {
    throw new Error('test dial: cannot even start');
  };
  await t.rejects(get(guarded(t, { resolve, dial }), `https://${host}/`), { message: 'test dial: cannot even start' });
});

t.test('host guard - the system resolver answers every address of a name, /etc/hosts first', async (t) => {
  // localhost is answered by /etc/hosts (nsswitch `files`), so no DNS query leaves the machine.
  const addresses = await systemResolver('localhost');
  t.ok(addresses.includes('127.0.0.1'), `localhost resolves to ${addresses.join(', ')}, 127.0.0.1 among them`);
});
