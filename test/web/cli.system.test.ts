// `datapoints accounts invite` and the operator role on the command line (docs/dashboard.md,
// "Sign-in", "Operator role"), through the built program.
import t from 'tap';
import { startServer } from '../helpers/cli.js';
import { tempDataDir } from '../helpers/service.js';

t.test('serve --secure-cookies - the session cookie is marked Secure', async (t) => {
  const dir = tempDataDir(t);
  const server = await startServer(t, ['--data', dir, '--threads', '1', '--secure-cookies']);
  t.teardown(() => server.stop());
  const answer = await fetch(`${server.url}/dashboard/signin`);
  t.match(answer.headers.getSetCookie()[0], /^dp_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=3600; Secure$/);
});
