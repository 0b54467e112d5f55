// What the stream answers to bad client messages (docs/push.md#messages, "Close codes"):
// the search's own validation messages, and close codes for frames it cannot take.
import t, { type Test } from 'tap';
import type { AccountSettings } from '../../src/access/provisioning.js';
import { startTestService } from '../helpers/service.js';
import { StreamClient } from './streamClient.js';

const ref = (platform: string, type: string, identifier: string) => ({ platform, type, identifier });

async function stream(t: Test, settings: AccountSettings = {}) {
  const testService = await startTestService(t);
  const token = await testService.tokenFor('alice', settings);
  return { ...testService, client: await StreamClient.open(t, testService.url, token) };
}

t.test('stream - messages that are not a subscribe or unsubscribe get a 422 error and count nothing', async (t) => {
  const { client } = await stream(t);
  client.send('{"type": "subscribe", ');
  t.same(await client.next(), { type: 'error', status: 422, errors: ['Message must be valid JSON'] });
  for (const message of ['[]', '"subscribe"', '{"type": "search"}', '{}']) {
    client.send(message);
    t.same(
      await client.next(),
      { type: 'error', status: 422, errors: ["Message must be a JSON object whose type is 'subscribe' or 'unsubscribe'"] },
      message,
    );
  }
  client.send({ type: 'subscribe', resources: [ref('github', 'account', 'octocat')] });
  t.equal((await client.next()).limits['X-Quota-Remaining'], '499', 'the first counted message');
});

t.test('stream - a subscribe is validated exactly as a search body (docs/api.md#a-40), and counts', async (t) => {
  const { client, tokenFor, search } = await stream(t);
  const eleven = Array.from({ length: 11 }, (_, index) => ref('github', 'account', `user${index}`));
  const bodies = [
    { resources: eleven },
    { resources: [] },
    { resources: 'octocat' },
    { resources: [ref('myspace', 'account', 'tom'), ref('github', 'account', 'https://github.com/octocat'), 7] },
  ];
  const token = await tokenFor('bob');
  for (const body of bodies) {
    client.send({ type: 'subscribe', ...body });
    const answer = await client.next();
    const searched = await search(token, body);
    t.equal(searched.status, 422);
    t.same(answer, { type: 'error', status: 422, errors: searched.body.errors, limits: answer.limits }, JSON.stringify(body));
  }
  client.send({ type: 'unsubscribe', resources: eleven });
  t.same(await client.next(), { type: 'error', status: 422, errors: ['Resources is too long (maximum is 10 resources)'] });
  client.send({ type: 'subscribe', resources: [ref('github', 'account', 'octocat')] });
  t.equal((await client.next()).limits['X-Quota-Remaining'], '495', 'four invalid subscribes counted; the unsubscribe did not');
});

t.test('stream - a binary frame closes the connection with 1003', async (t) => {
  const { client } = await stream(t);
  client.socket.send(Buffer.from('{"type":"subscribe"}'), { binary: true });
  t.same(await client.closed, { code: 1003, reason: 'Binary messages are not accepted; send JSON text' });
});

t.test('stream - a message over 16 KiB closes the connection with 1009', async (t) => {
  const { client } = await stream(t);
  client.send(JSON.stringify({ type: 'subscribe', resources: [], padding: 'x'.repeat(16 * 1024) }));
  t.same(await client.closed, { code: 1009, reason: 'Message exceeds the limit of 16384 bytes' });
});

t.test('stream - at most 1,000 subscriptions per connection; case variants count apart (docs/push.md#limits)', async (t) => {
  const { client } = await stream(t, { plan: 'paid', rate: { limit: 1_000_000, windowMs: 60_000 } });
  // 1,024 spellings of one name: one resource, as many references.
  const spellings = Array.from({ length: 1_010 }, (_, n) =>
    [...'abcdefghij'].map((letter, bit) => (n & (1 << bit) ? letter.toUpperCase() : letter)).join(''),
  );
  for (let start = 0; start < 1_000; start += 10) {
    client.send({ type: 'subscribe', resources: spellings.slice(start, start + 10).map((name) => ref('github', 'account', name)) });
  }
  for (let index = 0; index < 100; index++) t.equal((await client.next((m) => m.type !== 'update')).type, 'subscribed');
  client.send({ type: 'subscribe', resources: [ref('github', 'account', spellings[0]!)] });
  t.equal((await client.next((m) => m.type !== 'update')).type, 'subscribed', 'a reference followed already is no new subscription');
  client.send({ type: 'subscribe', resources: [ref('github', 'account', spellings[1_000]!)] });
  const refused = await client.next((m) => m.type !== 'update');
  t.same(refused, {
    type: 'error',
    status: 422,
    errors: ['Subscriptions would exceed the limit of 1000 per connection'],
    limits: refused.limits,
  });
  client.send({ type: 'unsubscribe', resources: [ref('github', 'account', spellings[0]!)] });
  await client.next((m) => m.type === 'unsubscribed');
  client.send({ type: 'subscribe', resources: [ref('github', 'account', spellings[1_000]!)] });
  t.equal((await client.next((m) => m.type !== 'update')).type, 'subscribed', 'room again after an unsubscribe');
});

t.test('stream - a text frame that is not UTF-8 drops the connection (1006; docs/push.md#invalid-utf-8)', async (t) => {
  const { client, url, tokenFor } = await stream(t);
  client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
  t.same(await client.closed, { code: 1006, reason: '' });
  const next = await StreamClient.open(t, url, await tokenFor('alice'));
  next.send({ type: 'subscribe', resources: [ref('github', 'account', 'octocat')] });
  t.equal((await next.next()).type, 'subscribed', 'the server goes on serving');
});
