// The emulator's counts can be moved at run time (docs/operations.md#moving-counts): POST
// /_emulator/counts adds to a resource's counts, so a demo or a test sees a series move within
// seconds instead of waiting for the hourly drift.
import t from 'tap';
import { startEmulator } from '../../src/emulator/server.js';
import { eventually, startTestService } from '../helpers/service.js';

const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/_emulator/counts`, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

t.test('emulator counts - POST adds to one resource, offsets accumulate, GET lists them', async (t) => {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  const followers = async (login: string) => (await (await fetch(`${emulator.url}/github/users/${login}`)).json()).followers;
  const before = await followers('octocat');
  const other = await followers('hubot');
  t.same(await post(emulator.url, { platform: 'github', identifier: 'OctoCat', add: { followers: 100 } }), {
    status: 200,
    body: { platform: 'github', identifier: 'octocat', add: { followers: 100 } },
  });
  t.equal(await followers('octocat'), before + 100);
  t.same((await post(emulator.url, { platform: 'github', identifier: 'octocat', add: { followers: 5, following: 1 } })).body, {
    platform: 'github',
    identifier: 'octocat',
    add: { followers: 105, following: 1 },
  });
  t.equal(await followers('octocat'), before + 105);
  t.equal(await followers('hubot'), other, 'another resource keeps its counts');
  t.same((await post(emulator.url, { platform: 'github', identifier: 'octocat', add: { followers: -(10 ** 12) } })).status, 200);
  t.equal(await followers('octocat'), 0, 'a count never goes below 0');
  const listed = await (await fetch(`${emulator.url}/_emulator/counts`)).json();
  t.same(listed, { counts: [{ platform: 'github', identifier: 'octocat', add: { followers: 105 - 10 ** 12, following: 1 } }] });
});

t.test('emulator counts - a bad body is answered 400 with what is wrong', async (t) => {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  const refused = async (body: unknown) => {
    const answer = await post(emulator.url, body);
    t.equal(answer.status, 400);
    return answer.body.error;
  };
  t.equal(await refused({ platform: 'myspace', identifier: 'tom', add: { followers: 1 } }), "unknown platform 'myspace'");
  t.equal(
    await refused({ platform: 'github', identifier: '*', add: { followers: 1 } }),
    'identifier must be a non-empty string naming one resource',
  );
  t.equal(await refused({ platform: 'github', identifier: 'octocat' }), 'add must be an object of counts to add, e.g. {"followers": 100}');
  t.equal(
    await refused({ platform: 'github', identifier: 'octocat', add: { fans: 1 } }),
    "add names unknown count 'fans': use followers, following, posts, views, likes, reposts, replies",
  );
  t.equal(await refused({ platform: 'github', identifier: 'octocat', add: { followers: 1.5 } }), 'add.followers must be an integer');
  t.same((await (await fetch(`${emulator.url}/_emulator/counts`)).json()).counts, [], 'nothing refused was applied');
});

t.test('emulator control routes - a body that is not JSON, too large or names no platform is a 400 on both', async (t) => {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  for (const route of ['faults', 'counts']) {
    const refused = async (body: string) => {
      const response = await fetch(`${emulator.url}/_emulator/${route}`, { method: 'POST', body });
      t.equal(response.status, 400, `${route}: ${body.slice(0, 20)}`);
      return (await response.json()).error;
    };
    t.equal(await refused('{"platform": '), 'body must be JSON');
    t.equal(await refused('null'), "unknown platform 'undefined'");
    t.equal(await refused('{"identifier": "octocat"}'), "unknown platform 'undefined'");
    t.equal(await refused(JSON.stringify({ platform: 'github', padding: 'x'.repeat(5_000) })), 'body too large');
  }
  t.same((await (await fetch(`${emulator.url}/_emulator/faults`)).json()).faults, [], 'no fault was switched on');
});

t.test('emulator counts - a moved count shows in the history once the resource is collected again', async (t) => {
  // A stopped clock: the hourly drift cannot add a point while the test runs.
  const emulator = await startEmulator(0, () => Date.UTC(2026, 10, 26, 12));
  t.teardown(() => emulator.close());
  const ts = await startTestService(t, { upstream: emulator.url, policy: { freshForMs: 1_000 } });
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const history = async () => {
    const response = await fetch(`${ts.url}/api/v1/resources/history`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ resources: [octocat], interval: 'collection' }),
    });
    return (await response.json()).data[0];
  };
  const collected = await eventually(
    async () => (await ts.search(token, { resources: [octocat] })).body.data[0],
    (entry) => entry.status === 'available',
  );
  const first = collected.metrics.followers.value;
  await post(emulator.url, { platform: 'github', identifier: 'octocat', add: { followers: 250 } });
  // The next collection comes when the resource is no longer fresh (1 s here); searching asks for it.
  const moved = await eventually(
    async () => {
      await ts.search(token, { resources: [octocat] });
      return history();
    },
    (entry) => entry.metrics?.followers.series.length === 2,
  );
  t.same(
    moved.metrics.followers.series.map((point: { value: number }) => point.value),
    [first, first + 250],
  );
  t.same([moved.metrics.followers.first, moved.metrics.followers.last, moved.metrics.followers.change], [first, first + 250, 250]);
});
