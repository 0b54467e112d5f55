// Each server of a federated platform is its own upstream (docs/platforms.md#each-server-its-own-upstream):
// through the real service and emulator, a server that is down opens its own breaker and is listed
// on the console's platform page with why, while another server of the same platform keeps
// collecting and the platform itself is never paused.
import t from 'tap';
import { eventually } from '../helpers/eventually.js';
import { faultWorld, label, untilStatuses, type Reference } from './faultWorld.js';

const breaker = { failureThreshold: 3, cooldownMs: 60_000, maxCooldownMs: 60_000 };
const accountsOn = (host: string, from: number, count: number): Reference[] =>
  Array.from({ length: count }, (_, index) => ({ platform: 'mastodon', type: 'account', identifier: `user${from + index}@${host}` }));

t.test('faults - a federated server that is down opens its own breaker; another server of the platform keeps collecting', async (t) => {
  const world = await faultWorld(t, { breaker });
  const mastodon = () => world.ts.service.platformStatus.snapshot().platforms.find((status) => status.platform === 'mastodon')!;

  // The emulator answers 503 for every resource of a server whose name starts with `flaky`.
  await world.search(accountsOn('flaky.example.org', 0, 6));
  const opened = await eventually(
    async () => mastodon().failingServers,
    (servers) => servers.some(({ host }) => host === 'flaky.example.org'),
  );
  t.match(opened, [{ host: 'flaky.example.org', failures: breaker.failureThreshold, lastError: 'unexpected upstream status 503' }]);

  // After the down server's breaker opened, the other server is collected: at once, not after its cooldown.
  const up = accountsOn('social.example.org', 0, 5);
  await world.search(up);
  const collected = await untilStatuses(world, up, ['available'], 30_000);
  for (const [index, entry] of collected.entries()) t.equal(entry.status, 'available', `${label(up[index]!)}: collected`);

  const status = mastodon();
  t.equal(status.breaker.state, 'closed', "the platform's own breaker never opened");
  t.same(
    status.failingServers.map(({ host }) => host),
    ['flaky.example.org'],
    'only the down server is listed',
  );
  const down = await world.search(accountsOn('flaky.example.org', 0, 6));
  // Those tried failed; those the open breaker refused were never tried, which is no attempt (docs/platforms.md#circuit-breaker).
  const statuses = down.map((entry) => entry.status);
  t.ok(
    statuses.every((status) => status === 'unavailable' || status === 'pending') &&
      statuses.filter((status) => status === 'unavailable').length >= breaker.failureThreshold,
    `the down server's resources are unavailable or not yet tried: ${statuses.join(', ')}`,
  );
  const page = world.ts.service.platformStatus.snapshot();
  t.notOk(JSON.stringify(page).includes('social.example.org'), 'a server that collects is not listed anywhere');
});
