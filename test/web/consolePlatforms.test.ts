// The console's platform page lists a federated platform's failing servers, with why
// (docs/operations.md#platform-status, docs/platforms.md#each-server-its-own-upstream).
import t from 'tap';
import { PlatformStatusBoard } from '../../src/operations/platformStatus.js';
import { livePlatforms } from '../../src/web/pages/console/platforms.js';

const at = Date.UTC(2026, 10, 23, 12, 0, 0);

t.test('console platforms - a federated server whose breaker is open is listed with its trial and last error', async (t) => {
  const hostOf = (identifier: string) => identifier.slice(identifier.indexOf('@') + 1);
  const board = new PlatformStatusBoard(
    [
      ['github', { budget: { concurrency: 4, perMinute: 80 } }],
      ['mastodon', { budget: { concurrency: 2, perMinute: 50 }, hostOf }],
    ],
    () => at,
    () => 0,
  );
  const page = () => String(livePlatforms({ platforms: board, now: () => at }));
  t.notMatch(page(), 'Failing servers', 'nothing listed while every server collects');
  board.serverBreakerChanged('mastodon', 'down.example.org', { state: 'open', at, trialAt: at + 30_000, failures: 5 });
  const markup = page();
  t.match(markup, '<h3>Failing servers</h3>');
  t.match(
    markup,
    '<code>down.example.org</code>: <span class="breaker-open">open</span> since 12:00:00 UTC after 5 failures; trial call at 12:00:30 UTC',
  );
  t.equal(markup.match(/Failing servers/g)?.length, 1, 'under mastodon only');
  board.serverBreakerChanged('mastodon', 'down.example.org', { state: 'closed', at: at + 30_000 });
  t.notMatch(page(), 'down.example.org', 'gone once its trial succeeds');
});
