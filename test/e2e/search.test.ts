// The search operation end to end over real HTTP, against the in-process emulator.
import t from 'tap';
import { eventually, startTestService } from '../helpers/service.js';

const ref = (platform: string, type: string, identifier: string) => ({ platform, type, identifier });
const statuses = (body: { data: Array<{ status: string }> }) => body.data.map((entry) => entry.status);

t.test('search - new resources answer pending with four fields, then their datapoints (docs/api.md#a-21)', async (t) => {
  const { tokenFor, search } = await startTestService(t);
  const token = await tokenFor('alice');
  const resources = [
    ref('github', 'account', 'Octocat'),
    ref('github', 'post', 'octocat:Hello-World'),
    ref('github', 'account', 'missing-user'),
    ref('github', 'account', 'flaky-user'),
  ];
  const first = await search(token, { resources });
  t.equal(first.status, 200);
  t.same(first.body, {
    data: resources.map((resource) => ({ ...resource, status: 'pending' })),
  });
  const settled = await eventually(
    () => search(token, { resources }),
    (answer) => !statuses(answer.body).includes('pending'),
  );
  t.same(statuses(settled.body), ['available', 'available', 'not_found', 'unavailable']);
  const [account, repository, missing, flaky] = settled.body.data;
  t.same(Object.keys(account), ['platform', 'type', 'identifier', 'status', 'metrics']);
  t.equal(account.identifier, 'Octocat', 'the identifier is echoed as sent');
  t.same(Object.keys(account.metrics), ['followers', 'following', 'posts']);
  t.equal(account.metrics.posts.semantic, 'repositories');
  t.match(account.metrics.followers, { status: 'available', semantic: 'followers' });
  t.equal(typeof account.metrics.followers.value, 'number');
  t.match(account.metrics.followers.collected_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.same(repository.metrics.views, {
    value: null,
    status: 'unavailable',
    collected_at: repository.metrics.likes.collected_at,
    semantic: 'views',
  });
  t.equal(repository.metrics.likes.semantic, 'stars');
  t.equal(repository.metrics.reposts.semantic, 'forks');
  t.same(missing, { ...resources[2], status: 'not_found' });
  t.same(flaky, { ...resources[3], status: 'unavailable' });
});

t.test(
  'search - order is kept, exact duplicates removed, case variants share one resource (docs/api.md#a-8, docs/api.md#a-9)',
  async (t) => {
    const { tokenFor, search } = await startTestService(t);
    const token = await tokenFor('alice');
    const resources = [
      ref('github', 'account', 'torvalds'),
      ref('github', 'account', 'octocat'),
      ref('github', 'account', 'torvalds'),
      ref('github', 'account', 'Torvalds'),
    ];
    await search(token, { resources });
    const answer = await eventually(
      () => search(token, { resources }),
      (a) => !statuses(a.body).includes('pending'),
    );
    t.same(
      answer.body.data.map((entry: { identifier: string }) => entry.identifier),
      ['torvalds', 'octocat', 'Torvalds'],
    );
    t.same(answer.body.data[0].metrics, answer.body.data[2].metrics, 'Torvalds and torvalds are one resource');
  },
);

t.test('search - lifecycle available -> stale -> available, and not_found after deletion', async (t) => {
  const { service, tokenFor, search } = await startTestService(t, { policy: { freshForMs: 150, retryBaseMs: 100, retryCapMs: 200 } });
  const token = await tokenFor('alice');
  const resources = [ref('github', 'account', 'lifecycle')];
  const world = service.emulator!.world;
  const statusNow = async () => (await search(token, { resources })).body.data[0];
  const available = await eventually(statusNow, (entry) => entry.status === 'available');
  t.equal(available.status, 'available');

  world.setFault('github', 'lifecycle', 'error');
  const stale = await eventually(statusNow, (entry) => entry.status === 'stale');
  t.equal(stale.status, 'stale', 'a failed refresh of a resource with data is stale (docs/api.md#a-23)');
  t.same(stale.metrics, available.metrics, 'stale keeps the old datapoints and their collected_at');

  world.setFault('github', 'lifecycle', 'none');
  const recovered = await eventually(statusNow, (entry) => entry.status === 'available');
  t.equal(recovered.status, 'available');
  t.not(recovered.metrics.followers.collected_at, available.metrics.followers.collected_at);

  world.setFault('github', 'lifecycle', 'notfound');
  const deleted = await eventually(statusNow, (entry) => entry.status === 'not_found');
  t.same(deleted, { ...resources[0], status: 'not_found' });
});

t.test('search - an unavailable resource recovers when the platform does (docs/api.md#a-23)', async (t) => {
  const { service, tokenFor, search } = await startTestService(t, { policy: { retryBaseMs: 100, retryCapMs: 200 } });
  const token = await tokenFor('alice');
  const resources = [ref('github', 'account', 'recovering')];
  service.emulator!.world.setFault('github', 'recovering', 'malformed');
  const statusNow = async () => (await search(token, { resources })).body.data[0].status;
  t.equal(
    await eventually(statusNow, (status) => status === 'unavailable'),
    'unavailable',
    'a body that does not parse is a failure, never not_found',
  );
  service.emulator!.world.setFault('github', 'recovering', 'none');
  t.equal(await eventually(statusNow, (status) => status === 'available'), 'available');
});
