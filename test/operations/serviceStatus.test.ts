// The platform status of a running service (docs/operations.md#platform-status), fed by its
// real collection loop against the emulator.
import t from 'tap';
import { platformCodes } from '../../src/platforms/registry.js';
import { eventually, startTestService } from '../helpers/service.js';

t.test('platform status - a service counts its collections per platform and outcome', async (t) => {
  const { service, search, tokenFor } = await startTestService(t);
  const token = await tokenFor('alice');
  const answer = await search(token, {
    resources: [
      { platform: 'github', type: 'account', identifier: 'octocat' },
      { platform: 'github', type: 'account', identifier: 'missing-one' },
      { platform: 'x', type: 'account', identifier: 'jack' },
    ],
  });
  t.equal(answer.status, 200);
  const counted = (platform: string) => {
    const status = service.platformStatus.snapshot().platforms.find((entry) => entry.platform === platform)!;
    return status.perMinute.reduce((sum, minute) => ({ found: sum.found + minute.found, notFound: sum.notFound + minute.notFound }), {
      found: 0,
      notFound: 0,
    });
  };
  const github = await eventually(
    async () => counted('github'),
    (counts) => counts.found + counts.notFound === 2,
  );
  t.same(github, { found: 1, notFound: 1 });
  t.same(
    await eventually(
      async () => counted('x'),
      (counts) => counts.found === 1,
    ),
    { found: 1, notFound: 0 },
  );
  const snapshot = service.platformStatus.snapshot();
  t.same(
    snapshot.platforms.map((entry) => entry.platform),
    platformCodes,
    'every platform',
  );
  const githubStatus = snapshot.platforms.find((entry) => entry.platform === 'github')!;
  t.match(githubStatus, {
    disabledReason: null,
    breaker: { state: 'closed' },
    budget: { inFlight: 0, perMinute: null },
    collecting: 0,
    lastErrors: [],
  });
  t.ok(githubStatus.budget.callsLastMinute >= 2, `${githubStatus.budget.callsLastMinute} calls counted`);
  t.equal(snapshot.queueWaiting, 0);
});
