// A server with edge threads honours the front end's choices as one on a single thread does
// (FrontEndChoices, src/threads/edgeMessages.ts), and a throttled sign-in waits with the service's
// own wait, lent to the edge (src/threads/edges.ts). One edge, so every connection meets the same thread.
import t from 'tap';
import { startTestService } from '../helpers/service.js';
import { StreamClient } from '../push/streamClient.js';
import { signedIn, WebClient } from '../web/webClient.js';

t.test('edge threads - a throttled sign-in waits with the wait the service was given', async (t) => {
  const waits: number[] = [];
  const { url, dataDir, tokenFor } = await startTestService(t, { built: true, threads: 1, signinWait: async (ms) => void waits.push(ms) });
  await tokenFor('alice');
  const password = 'a long enough password';
  await signedIn(new WebClient(url), dataDir, 'alice', password);
  const client = new WebClient(url);
  await client.get('/dashboard/signin');
  // docs/dashboard.md#rate-limits: failures beyond the third are held, 500 ms more each time.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const answer = await client.submit('/dashboard/signin', '/dashboard/signin', { name: 'alice', password: `wrong ${attempt}` });
    t.equal(answer.status, 401);
  }
  t.same(waits, [500, 1000], 'the edge waited through the service, not on a timer of its own');
});

t.test('edge threads - a silent stream is closed after the idle timeout the service was given', async (t) => {
  // 8 s, the smallest uWebSockets.js keeps, against the default of 60 s: under this test's
  // timeout only the given one can close the silent connection.
  t.setTimeout(45_000);
  const { url, tokenFor } = await startTestService(t, { built: true, threads: 1, streamIdleTimeoutSeconds: 8 });
  const silent = await StreamClient.open(t, url, await tokenFor('quiet'), { autoPong: false });
  const closed = await silent.closed;
  t.not(closed.code, 1000, `closed without a clean close (${closed.code})`);
});
