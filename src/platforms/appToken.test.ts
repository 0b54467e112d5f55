import t from 'tap';
import { appToken, tokenMarginMs } from './appToken.js';
import type { UpstreamHttp } from './http.js';
import { fixedNow, reply, signal } from '../../test/helpers/platforms.js';

/** A token endpoint that issues `token-1`, `token-2`, ... valid for `expiresIn` seconds, and an API that answers 200. */
function upstream(expiresIn: number) {
  let now = fixedNow;
  let issued = 0;
  const reads: string[] = [];
  // While held, token answers wait for `open()`.
  let gate: { opened: Promise<void>; open: () => void } | undefined;
  const http: UpstreamHttp = {
    async get(_url, headers) {
      reads.push(headers.authorization!);
      return reply(200, '{}');
    },
    async post() {
      issued += 1;
      const answer = reply(200, JSON.stringify({ access_token: `token-${issued}`, expires_in: expiresIn, token_type: 'bearer' }));
      await gate?.opened;
      return answer;
    },
  };
  const token = appToken(
    { baseUrl: '', origins: {}, hostUrl: (host) => `https://${host}`, credentials: {}, http, now: () => now },
    'test',
    () => ({
      url: 'https://id.example/token',
      headers: {},
      body: 'grant_type=client_credentials',
    }),
  );
  const read = () => token.authorized((bearer) => http.get('https://api.example/', { authorization: bearer }, signal), signal);
  return {
    read,
    reads,
    issued: () => issued,
    advance: (ms: number) => {
      now += ms;
    },
    /** Holds token answers until `open()`: to see calls that wait for one token. */
    hold: () => {
      let open: () => void = () => undefined;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      gate = { opened, open };
    },
    open: () => gate?.open(),
  };
}

t.test('app token - kept until a minute before it expires, then asked for again', async (t) => {
  const up = upstream(3600);
  await up.read();
  up.advance(3_600_000 - tokenMarginMs - 1);
  await up.read();
  t.same(up.reads, ['token-1', 'token-1'], 'still inside its life');
  up.advance(1);
  await up.read();
  t.same(up.reads, ['token-1', 'token-1', 'token-2'], 'renewed one margin before expiry');
  t.equal(up.issued(), 2);
});

t.test('app token - calls that wait at once share one token request', async (t) => {
  const up = upstream(3600);
  up.hold();
  const reads = Promise.all([up.read(), up.read(), up.read()]);
  // Let all three reach the token before it is answered.
  await new Promise((resolve) => setImmediate(resolve));
  up.open();
  await reads;
  t.equal(up.issued(), 1, 'one POST for three calls');
  t.same(up.reads, ['token-1', 'token-1', 'token-1']);
});

t.test('app token - an unreadable token answer is a failure, and the next call asks again', async (t) => {
  const answers = [reply(200, '{"token_type":"bearer"}'), reply(200, '{"access_token":"ok","expires_in":60}')];
  const http: UpstreamHttp = {
    get: async () => reply(200, '{}'),
    post: async () => answers.shift()!,
  };
  const token = appToken(
    { baseUrl: '', origins: {}, hostUrl: (host) => `https://${host}`, credentials: {}, http, now: () => fixedNow },
    'test',
    () => ({
      url: 'https://id.example/token',
      headers: {},
      body: '',
    }),
  );
  const read = () => token.authorized(() => http.get('https://api.example/', {}, signal), signal);
  t.same(await read(), { kind: 'failed', reason: 'upstream body does not match the expected shape' });
  t.match(await read(), { status: 200 });
});
