// Where the service's sockets go: the platform emulator listens on loopback only
// (docs/operations.md#emulator), and an upstream's redirect is an answer, never a hop to another
// host (src/platforms/http.ts), so the resource ends `unavailable` (docs/api.md#a-23, docs/api.md#a-26).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import pino from 'pino';
import t, { type Test } from 'tap';
import { startEmulator } from '../../src/emulator/server.js';
import { createUpstreamHttp } from '../../src/platforms/http.js';
import { platforms } from '../../src/platforms/registry.js';
import { eventually, startTestService } from '../helpers/service.js';
import { perSearch } from '../helpers/searchBody.js';
import { canaryOf, rules } from './canaries.js';

/** Local addresses with a TCP socket listening on `port`, read from the kernel's tables (Linux). */
function listeningAddresses(port: number): string[] | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const [table, family] of [
    ['/proc/net/tcp', 4],
    ['/proc/net/tcp6', 6],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      return undefined;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      const [address, localPort] = local!.split(':');
      if (state !== '0A' || localPort !== hexPort) continue;
      // Each 32-bit word of the address is written in host (little-endian) byte order.
      const bytes = address!.match(/.{8}/g)!.flatMap((word) =>
        word
          .match(/../g)!
          .reverse()
          .map((byte) => parseInt(byte, 16)),
      );
      addresses.push(family === 4 ? bytes.join('.') : `[${Buffer.from(bytes).toString('hex')}]`);
    }
  }
  return addresses;
}

/** 'connected', or the error code of the attempt ('ECONNREFUSED', 'timeout', ...). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1_000 });
    const settle = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.on('connect', () => settle('connected'));
    socket.on('timeout', () => settle('timeout'));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** Addresses of this machine other than loopback (link-local IPv6 needs its interface named). */
const otherAddresses = () =>
  Object.entries(networkInterfaces()).flatMap(([name, entries]) =>
    (entries ?? [])
      .filter((entry) => !entry.internal)
      .map((entry) => (entry.address.startsWith('fe80:') ? `${entry.address}%${name}` : entry.address)),
  );

async function checkLoopbackOnly(t: Test, port: number) {
  const listening = listeningAddresses(port);
  if (listening) t.same(listening, ['127.0.0.1'], `port ${port} is bound on 127.0.0.1 alone`);
  t.equal(await tryConnect('127.0.0.1', port), 'connected', 'it answers on loopback');
  const others = otherAddresses();
  if (others.length === 0) t.comment('no interface besides loopback to try');
  for (const address of others) t.not(await tryConnect(address, port), 'connected', `it does not answer on ${address}`);
}

t.test('network - the emulator listens on loopback only', async (t) => {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  t.equal(emulator.url, `http://127.0.0.1:${emulator.port}`, 'its URL names loopback');
  await checkLoopbackOnly(t, emulator.port);
});

t.test('network - the emulator a service starts in-process listens on loopback only', async (t) => {
  const { service } = await startTestService(t, { upstream: 'emulator' });
  await checkLoopbackOnly(t, service.emulator!.port);
});

interface Recorder {
  url: string;
  port: number;
  hits: string[];
}

async function listen(t: Test, answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<Recorder> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url!);
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  t.teardown(() => server.closeAllConnections());
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, hits };
}

const redirectStatuses = [301, 302, 303, 307, 308];

/** An upstream that sends every request to the same path on `elsewhere`, with one of the redirect statuses. */
function redirectingTo(elsewhere: Recorder) {
  let next = 0;
  return (request: IncomingMessage, response: ServerResponse) => {
    const status = redirectStatuses[next++ % redirectStatuses.length]!;
    response.writeHead(status, { location: elsewhere.url + request.url!, 'content-type': 'text/plain' }).end('Moved');
  };
}

t.test('network - the upstream client hands every redirect back as an answer', async (t) => {
  const elsewhere = await listen(t, (_, response) => response.end('followed'));
  const upstream = await listen(t, (request, response) => {
    const status = Number(request.url!.slice(1));
    response.writeHead(status, { location: `${elsewhere.url}/landing` }).end();
  });
  const http = createUpstreamHttp();
  t.teardown(() => http.close());
  for (const status of redirectStatuses) {
    const answer = await http.get(`${upstream.url}/${status}`, {}, AbortSignal.timeout(2_000));
    t.equal(answer.status, status, `${status} is returned`);
    t.equal(answer.headers.location, `${elsewhere.url}/landing`, 'with its Location');
  }
  t.same(elsewhere.hits, [], 'the other host is never asked');
});

t.test('network - a redirect to another host is not followed and the resource ends unavailable, on every platform', async (t) => {
  const elsewhere = await listen(t, (_, response) => response.end('followed'));
  const upstream = await listen(t, redirectingTo(elsewhere));
  const logLines: Array<{ msg?: string; resource?: string; reason?: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  const { search, tokenFor } = await startTestService(t, { upstream: upstream.url, log });
  const token = await tokenFor('alice', { quota: null, rate: { limit: 1_000, windowMs: 60_000 } });
  const lookUp = async () => {
    const answers = await Promise.all(
      perSearch(rules).map((batch) =>
        search(token, { resources: batch.map((rule) => ({ platform: rule.platform, type: rule.type, identifier: canaryOf(rule) })) }),
      ),
    );
    return answers.flatMap((answer) => answer.body.data as Array<{ platform: string; type: string; status: string }>);
  };
  await lookUp();
  const settled = await eventually(lookUp, (data) => data.every((entry) => entry.status !== 'pending'));
  t.same(
    settled.map((entry) => `${entry.platform}/${entry.type} ${entry.status}`),
    rules.map(({ platform, type }) => `${platform}/${type} unavailable`),
    'each resource failed (docs/api.md#a-26: never not_found)',
  );

  t.same(elsewhere.hits, [], 'the host the redirects point to is never asked');
  const asked = new Set(upstream.hits.map((target) => target.split('/')[1]));
  t.same(asked, new Set(platforms.keys()), 'every platform asked its upstream, and got redirected');
  const reasons = logLines.filter((line) => line.msg === 'collection failed').map(({ resource, reason }) => `${resource}: ${reason}`);
  t.equal(reasons.length, rules.length, 'one failed collection per resource');
  const redirectAnswer = new RegExp(`unexpected upstream status 30[12378]$|linkedin redirected to ${elsewhere.url}/`);
  for (const reason of reasons) t.match(reason, redirectAnswer, reason);
});
