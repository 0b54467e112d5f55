// The resource stream end to end (docs/push.md): a real server on port 0 with the in-process
// emulator, a real WebSocket client. Subscribing, updates without polling, unsubscribing.
import t from 'tap';
import { startTestService } from '../helpers/service.js';
import { StreamClient, updateOf } from './streamClient.js';

const ref = (platform: string, type: string, identifier: string) => ({ platform, type, identifier });

t.test('stream - a subscribe answers pending at once, then each resource arrives as an update without polling', async (t) => {
  const { url, tokenFor, search } = await startTestService(t);
  const token = await tokenFor('alice');
  const client = await StreamClient.open(t, url, token);
  const resources = [ref('github', 'account', 'Octocat'), ref('github', 'account', 'missing-user')];
  client.send({ type: 'subscribe', resources });
  const subscribed = await client.next();
  t.same(subscribed, {
    type: 'subscribed',
    limits: {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': subscribed.limits['X-RateLimit-Reset'],
      'X-Quota-Limit': '500',
      'X-Quota-Remaining': '499',
      'X-Quota-Reset': subscribed.limits['X-Quota-Reset'],
    },
    data: resources.map((resource) => ({ ...resource, status: 'pending' })),
  });
  const available = await client.next(updateOf(resources[0]!, 'available'));
  const notFound = await client.next(updateOf(resources[1]!, 'not_found'));
  t.same(notFound, { type: 'update', data: [{ ...resources[1], status: 'not_found' }] });
  const answer = await search(token, { resources });
  t.same(available.data, [answer.body.data[0]], 'the update is the search answer entry, exactly');
  t.same(client.pending, [], 'no other message: pending -> pending (a lease) is no change');
});

t.test('stream - a refresh and an upstream fault arrive as updates; unsubscribe stops them (docs/push.md#messages)', async (t) => {
  const { url, tokenFor, service } = await startTestService(t, { policy: { freshForMs: 1_000, retryBaseMs: 1_000, retryCapMs: 1_000 } });
  const token = await tokenFor('alice', { plan: 'paid' });
  const client = await StreamClient.open(t, url, token);
  const lifecycle = ref('github', 'account', 'lifecycle');
  client.send({ type: 'subscribe', resources: [lifecycle] });
  t.equal((await client.next()).type, 'subscribed');
  const first = await client.next(updateOf(lifecycle, 'available'));
  const refreshed = await client.next(updateOf(lifecycle, 'available'));
  t.not(
    refreshed.data[0].metrics.followers.collected_at,
    first.data[0].metrics.followers.collected_at,
    'a refresh is an update with the new collection time',
  );
  const fault = await fetch(`${service.emulator!.url}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ platform: 'github', identifier: 'lifecycle', mode: 'error' }),
  });
  t.equal(fault.status, 204);
  const stale = await client.next(updateOf(lifecycle, 'stale'));
  t.same(stale.data[0].metrics, refreshed.data[0].metrics, 'stale keeps the last datapoints (docs/api.md#a-23)');
  // A second client stays subscribed: its update says when the recovery was sent.
  const watcher = await StreamClient.open(t, url, token);
  watcher.send({ type: 'subscribe', resources: [lifecycle] });
  t.equal((await watcher.next()).type, 'subscribed');
  client.send({ type: 'unsubscribe', resources: [lifecycle] });
  t.same(await client.next((message) => message.type === 'unsubscribed'), { type: 'unsubscribed', data: [lifecycle] });
  await fetch(`${service.emulator!.url}/_emulator/faults`, {
    method: 'POST',
    body: JSON.stringify({ platform: 'github', identifier: 'lifecycle', mode: 'none' }),
  });
  // The retry (1 s) collects it again: the client still subscribed hears it; the one that left
  // does not. A round trip on the leaver's socket after that puts any update sent to it ahead
  // of the answer, since one update is sent to every subscriber at once.
  await watcher.next(updateOf(lifecycle, 'available'));
  const other = ref('github', 'account', 'octocat');
  client.send({ type: 'subscribe', resources: [other] });
  await client.next((message) => message.type === 'subscribed');
  t.same(client.pending.filter(updateOf(lifecycle)), [], 'no update after unsubscribe');
});

t.test('stream - case variants are followed apart, each echoing its own spelling (docs/api.md#a-8)', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const token = await tokenFor('alice');
  const client = await StreamClient.open(t, url, token);
  const lower = ref('github', 'account', 'torvalds');
  const upper = ref('github', 'account', 'Torvalds');
  client.send({ type: 'subscribe', resources: [lower, upper] });
  t.same((await client.next()).data, [
    { ...lower, status: 'pending' },
    { ...upper, status: 'pending' },
  ]);
  const [a, b] = await Promise.all([client.next(updateOf(lower, 'available')), client.next(updateOf(upper, 'available'))]);
  t.same(a.data[0].metrics, b.data[0].metrics, 'one resource');
});
