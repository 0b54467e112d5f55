// Who may open the stream and what a subscribe counts (docs/push.md#authentication,
// "Counting", "Limits", "Close codes").
import t from 'tap';
import { issueToken } from '../../src/access/provisioning.js';
import { checkAgainstOpenApi } from '../helpers/openapi.js';
import { startTestService } from '../helpers/service.js';
import { refusedUpgrade, StreamClient, streamPath, ticketsPath } from './streamClient.js';

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };
const unknownToken = 'The bearer token is unknown or revoked';

t.test('stream - an upgrade without a usable token is answered 401 with the search body (docs/api.md#a-36)', async (t) => {
  const { url } = await startTestService(t);
  const missing = await refusedUpgrade(t, url);
  t.equal(missing.status, 401);
  t.equal(missing.headers['www-authenticate'], 'Bearer realm="datapoints"');
  t.same(missing.body, { error: 'Authentication required: send Authorization: Bearer <API_TOKEN>' });
  const unknown = await refusedUpgrade(t, url, 'dp_not-a-token');
  t.equal(unknown.status, 401);
  t.same(unknown.body, { error: unknownToken });
});

t.test('stream - a plain GET is 426, other methods 405; other methods on the tickets path 405', async (t) => {
  const { url } = await startTestService(t);
  const plain = await fetch(url + streamPath);
  t.equal(plain.status, 426);
  t.equal(plain.headers.get('upgrade'), 'websocket');
  const body = await plain.json();
  t.same(body, { error: 'This endpoint is a WebSocket: send an Upgrade: websocket request' });
  t.same(await checkAgainstOpenApi({ method: 'GET', path: streamPath, status: 426, headers: plain.headers, body }), []);
  const post = await fetch(url + streamPath, { method: 'POST' });
  t.equal(post.status, 405);
  t.equal(post.headers.get('allow'), 'GET');
  t.same(await post.json(), { error: 'Method POST is not allowed here; use GET' });
  const get = await fetch(url + ticketsPath);
  t.equal(get.status, 405);
  t.same(await get.json(), { error: 'Method GET is not allowed here; use POST' });
});

t.test('stream - a ticket opens one stream, once; a reused, forged or missing ticket is 401', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const token = await tokenFor('alice');
  const unauthenticated = await fetch(url + ticketsPath, { method: 'POST' });
  t.equal(unauthenticated.status, 401);
  const refusal = await unauthenticated.json();
  t.same(refusal, { error: 'Authentication required: send Authorization: Bearer <API_TOKEN>' });
  t.same(
    await checkAgainstOpenApi({ method: 'POST', path: ticketsPath, status: 401, headers: unauthenticated.headers, body: refusal }),
    [],
  );
  const issued = await fetch(url + ticketsPath, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  t.equal(issued.status, 201);
  t.equal(issued.headers.get('cache-control'), 'no-store');
  const issuedBody = await issued.json();
  t.same(await checkAgainstOpenApi({ method: 'POST', path: ticketsPath, status: 201, headers: issued.headers, body: issuedBody }), []);
  const { ticket, expires_at: expiresAt } = issuedBody;
  t.match(ticket, /^[A-Za-z0-9_-]{96}$/);
  t.ok(Math.abs(Date.parse(expiresAt) - Date.now() - 30_000) < 5_000, 'valid for 30 s');
  const client = await StreamClient.open(t, url, { ticket });
  t.equal(client.socket.protocol, 'datapoints.v1', 'the server selects the protocol, never echoes the ticket');
  client.send({ type: 'subscribe', resources: [octocat] });
  t.equal((await client.next()).type, 'subscribed', 'the stream belongs to the ticket token');
  const again = await refusedUpgrade(t, url, { ticket });
  t.equal(again.status, 401);
  t.same(again.body, { error: 'The stream ticket is unknown, expired or already used' });
  const forged = await refusedUpgrade(t, url, { ticket: `${ticket.slice(0, -4)}AAAA` });
  t.equal(forged.status, 401);
  t.same(forged.body, { error: 'The stream ticket is unknown, expired or already used' });
});

t.test('stream - a subscribe over the quota is refused with the 403 message, and over the rate with the 429 message', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const quota = await StreamClient.open(t, url, await tokenFor('small', { quota: 1 }));
  quota.send({ type: 'subscribe', resources: [octocat] });
  const accepted = await quota.next();
  t.equal(accepted.limits['X-Quota-Remaining'], '0');
  quota.send({ type: 'subscribe', resources: [octocat] });
  const refused = await quota.next((m) => m.type === 'error');
  const resetsOn = accepted.limits['X-Quota-Reset'];
  t.same(refused, {
    type: 'error',
    status: 403,
    error: `Monthly quota of 1 requests exhausted; it resets on ${resetsOn}`,
    limits: { ...accepted.limits, 'X-RateLimit-Remaining': '59', 'X-Quota-Remaining': '0' },
  });
  const rate = await StreamClient.open(t, url, await tokenFor('hasty', { plan: 'paid', rate: { limit: 1, windowMs: 60_000 } }));
  rate.send({ type: 'subscribe', resources: [octocat] });
  t.equal((await rate.next()).type, 'subscribed');
  rate.send({ type: 'subscribe', resources: [octocat] });
  const limited = await rate.next((m) => m.type === 'error');
  const retryAfter = Number(limited.limits['Retry-After']);
  t.ok(retryAfter >= 1 && retryAfter <= 60);
  t.same(limited, {
    type: 'error',
    status: 429,
    error: `Rate limit exceeded; retry after ${retryAfter} seconds`,
    limits: {
      'X-RateLimit-Limit': '1',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': limited.limits['X-RateLimit-Reset'],
      'Retry-After': String(retryAfter),
    },
  });
});

t.test('stream - a revoked token loses its connections within 1 s, with 4001', async (t) => {
  const { url, service } = await startTestService(t);
  await service.accounts.createAccount({
    name: 'leaky',
    plan: 'free',
    quota: 500,
    rate: { limit: 60, windowMs: 60_000 },
    createdAt: new Date().toISOString(),
  });
  const token = await issueToken(service.accounts, 'leaky', Date.now());
  const clients = await Promise.all([1, 2, 3].map(() => StreamClient.open(t, url, token.secret)));
  const revokedAt = Date.now();
  await service.accounts.revokeToken(token.id, new Date().toISOString());
  for (const client of clients) t.same(await client.closed, { code: 4001, reason: unknownToken });
  t.ok(Date.now() - revokedAt < 1_000, `closed ${Date.now() - revokedAt} ms after the revocation`);
});

t.test('stream - a suspended account loses its connections with 4003, and a new upgrade is refused with the search 403', async (t) => {
  const { url, service, tokenFor } = await startTestService(t);
  const token = await tokenFor('paused');
  const open = await StreamClient.open(t, url, token);
  const suspendedAt = Date.now();
  await service.accounts.suspendAccount('paused', new Date().toISOString(), 'unpaid invoice');
  const suspended = 'This account is suspended; its requests are refused until the operator resumes it';
  t.same(await open.closed, { code: 4003, reason: suspended }, 'the reason stays with the operator');
  t.ok(Date.now() - suspendedAt < 1_000, `closed ${Date.now() - suspendedAt} ms after the suspension`);
  const late = await refusedUpgrade(t, url, token);
  t.equal(late.status, 403, 'a new upgrade is refused as a search is');
  t.same(late.body, { error: suspended });
});

t.test('stream - at most 100 connections per account on a server; the next upgrade is 429', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const token = await tokenFor('crowd');
  const clients = await Promise.all(Array.from({ length: 100 }, () => StreamClient.open(t, url, token)));
  const refused = await refusedUpgrade(t, url, token);
  t.equal(refused.status, 429);
  t.same(refused.body, { error: 'This account has 100 stream connections open on this server, its limit' });
  const { ticket } = await (await fetch(url + ticketsPath, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json();
  t.equal((await refusedUpgrade(t, url, { ticket })).status, 429, 'a ticket refused for the limit...');
  clients[0]!.socket.close(1000);
  await clients[0]!.closed;
  const another = await StreamClient.open(t, url, { ticket });
  t.equal(another.socket.protocol, 'datapoints.v1', '...is still good once there is room');
});

t.test('stream - a client that stops reading is closed with 4002 (docs/push.md#slow-consumers)', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const token = await tokenFor('sleepy');
  const client = await StreamClient.open(t, url, token);
  const resources = Array.from({ length: 10 }, (_, index) => ({ ...octocat, identifier: `sleepy-${'x'.repeat(20)}-${index}` }));
  const unsubscribe = JSON.stringify({ type: 'unsubscribe', resources });
  client.socket.pause();
  // Each answer is ~1 KB. Unsubscribes, being free, never wait for a quota reservation, so the
  // flood is answered as fast as it arrives; the kernel's socket buffers take a few MB first.
  await client.floodUntilClosed(unsubscribe);
  client.socket.resume();
  t.same(await client.closed, { code: 4002, reason: 'More than 262144 bytes unread; read faster' });
});

t.test('stream - a stopping server closes its streams with 1001', async (t) => {
  const { url, tokenFor, service } = await startTestService(t);
  const client = await StreamClient.open(t, url, await tokenFor('alice'));
  await service.stop();
  t.same(await client.closed, { code: 1001, reason: 'The service is shutting down' });
});

t.test('stream - a silent connection is pinged; one that answers stays open, one that does not is closed', async (t) => {
  // The smallest timeout uWebSockets.js keeps (it counts in 4 s steps): the test waits about 2 of them.
  const { url, tokenFor } = await startTestService(t, { streamIdleTimeoutSeconds: 8 });
  const token = await tokenFor('quiet');
  const answering = await StreamClient.open(t, url, token);
  const silent = await StreamClient.open(t, url, token, { autoPong: false });
  let pinged = 0;
  answering.socket.on('ping', () => pinged++);
  const silentPinged = new Promise<void>((resolve) => silent.socket.once('ping', () => resolve()));
  await silentPinged;
  const closed = await silent.closed;
  t.not(closed.code, 1000, `the silent connection is closed without a clean close (${closed.code})`);
  t.ok(pinged > 0, 'the answering connection was pinged too');
  answering.send({ type: 'subscribe', resources: [octocat] });
  t.equal((await answering.next()).type, 'subscribed', 'and answering the pings kept it open');
});
