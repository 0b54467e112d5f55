// Every edge thread serves every dashboard route, and a session, CSRF token, sign-in or sign-in
// attempt made on one edge holds on the others: they share them only through LMDB (docs/dashboard.md).
import t from 'tap';
import { webLimits } from '../../src/config.js';
import { cli, startServer } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';
import { formSession, postFrom, signedIn, tally, WebClient } from './webClient.js';

t.test('dashboard - with two edge threads, a session made on one edge works on every edge', async (t) => {
  const dir = tempDataDir(t);
  t.equal(cli(['accounts', 'create', 'alice', '--data', dir]).status, 0);
  const server = await startServer(t, ['--data', dir, '--threads', '2', '--upstream', 'emulator']);
  t.teardown(() => server.stop());
  // A new connection for every request: the kernel spreads them over both edges.
  const client = new WebClient(server.url, { connection: 'close' });
  await signedIn(client, dir, 'alice', 'a long enough password');
  const statuses: number[] = [];
  for (let request = 0; request < 12; request++) statuses.push((await client.get('/dashboard/tokens')).status);
  t.same(statuses, Array(12).fill(200));
  for (let created = 0; created < 6; created++) {
    const answer = await client.submit('/dashboard/tokens', '/dashboard/tokens', { note: `token ${created}` });
    // A refused CSRF token is a 403; an accepted form redirects to the page that shows the secret once.
    t.equal(answer.status, 303, 'the CSRF token of a page from one edge is good on the other');
  }
  const list = await client.get('/dashboard/tokens');
  t.equal(list.text.match(/<td>token \d<\/td>/g)?.length, 6);
});

t.test('dashboard - with two edge threads, 150 wrong passwords at once for one name: 10 are checked, 140 refused', async (t) => {
  const dir = tempDataDir(t);
  t.equal(cli(['accounts', 'create', 'alice', '--data', dir]).status, 0);
  const server = await startServer(t, ['--data', dir, '--threads', '2', '--upstream', 'emulator']);
  t.teardown(() => server.stop());
  const { cookie, csrf } = await formSession(server.url);
  // docs/dashboard.md#counted-before-checked: counted in the LMDB both edges write, before any hash.
  const answers = await Promise.all(
    Array.from({ length: 150 }, (_, index) =>
      postFrom(server.url, '127.0.0.1', cookie, { csrf, name: 'alice', password: `wrong ${index}` }),
    ),
  );
  t.same(tally(answers), { 401: webLimits.signin.refuseAfter, 429: 150 - webLimits.signin.refuseAfter });
});
