// A sign-in flood against a running service, in process (issue 28): attempts are counted before their
// password is checked (docs/dashboard.md#counted-before-checked), hashing runs on the node's hasher
// and never holds up searches (docs/dashboard.md#password-hashing), and a full hasher answers 429.
import t from 'tap';
import { webLimits } from '../../src/config.js';
import { startTestService } from '../helpers/service.js';
import { formSession, postFrom, signedInHere, tally, WebClient } from './webClient.js';

const password = 'a long enough password';
const body = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };

t.test(
  'flood - 150 wrong passwords at once for one name from one address: 10 are checked, 140 refused; every search meanwhile is answered',
  async (t) => {
    const { url, dataDir, tokenFor, search } = await startTestService(t, { signinWait: async () => undefined });
    const token = await tokenFor('alice', { quota: null, rate: { limit: 1_000_000, windowMs: 60_000 } });
    await signedInHere(new WebClient(url), dataDir, 'alice', password);
    const { cookie, csrf } = await formSession(url);

    const flood = Promise.all(
      Array.from({ length: 150 }, (_, index) => postFrom(url, '127.0.0.1', cookie, { csrf, name: 'alice', password: `wrong ${index}` })),
    );
    let flooding = true;
    void flood.finally(() => {
      flooding = false;
    });
    const searches: number[] = [];
    while (flooding || searches.length < 20) searches.push((await search(token, body)).status);
    const answers = await flood;

    t.same(tally(answers), { 401: webLimits.signin.refuseAfter, 429: 150 - webLimits.signin.refuseAfter });
    const refused = answers.find((answer) => answer.status === 429)!;
    t.match(refused.text, 'Too many failed sign-ins for this account or from this address. Try again in 15 minutes.');
    t.equal(refused.retryAfter, String(webLimits.signin.windowMs / 1000));
    t.same(new Set(searches), new Set([200]), `all ${searches.length} searches during the flood answered 200`);
    const right = await postFrom(url, '127.0.0.1', cookie, { csrf, name: 'alice', password });
    t.equal(right.status, 429, 'after the flood the right password is refused too, for the window');
  },
);

t.test('flood - a full hasher refuses with 429 and Retry-After; attempts it never checked are not counted', async (t) => {
  const { url, search, tokenFor } = await startTestService(t, { signinWait: async () => undefined });
  const token = await tokenFor('alice');
  const { cookie, csrf } = await formSession(url);
  const { threads, queued, busyRetrySeconds } = webLimits.hashing;
  const { refuseAfter } = webLimits.signin;
  // Eight addresses, each within its own limit, with a name per attempt: only the hasher can refuse.
  const attempts = Array.from({ length: 8 * refuseAfter }, (_, index) => ({
    address: `127.0.0.${2 + (index % 8)}`,
    name: `guess${index}`,
  }));
  const answers = await Promise.all(attempts.map(({ address, name }) => postFrom(url, address, cookie, { csrf, name, password })));
  const counts = tally(answers);
  t.same(Object.keys(counts).sort(), ['401', '429'], 'checked and wrong, or refused');
  t.ok(counts[401]! >= threads + queued, `at least what fits was checked (${counts[401]})`);
  const busy = answers.find((answer) => answer.status === 429)!;
  t.equal(busy.retryAfter, String(busyRetrySeconds));
  t.match(busy.text, /Too many sign-ins are being checked just now \(request [^)]+\)\. Try again in a few seconds\./);
  const unchecked = attempts.find((_, index) => answers[index]!.status === 429)!;
  const again = await postFrom(url, unchecked.address, cookie, { csrf, name: unchecked.name, password });
  t.equal(again.status, 401, 'a refused attempt left its name and address free to try');
  t.equal((await search(token, body)).status, 200);
});
