// Every way a caller can present (or fail to present) a bearer token, with the exact answer
// (RFC 6750 2.1 and 3, RFC 9110 11.6.2; docs/api.md#a-36). Requests go out through node:http so
// that header bytes (spaces, tabs, empty tokens) reach the server exactly as written here.
import { request } from 'node:http';
import t from 'tap';
import { digestToken } from '../../src/auth/tokens.js';
import { searchPath, startTestService } from '../helpers/service.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function post(url: string, path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url + path,
      { method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode!, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const json = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const realm = 'Bearer realm="datapoints"';
/** docs/api.md#a-36: no usable credentials, so no error code (RFC 6750 3.1). */
const missing = {
  status: 401,
  challenge: realm,
  body: { error: 'Authentication required: send Authorization: Bearer <API_TOKEN>' },
};
/** A bearer token was sent and is not one we honour. */
const invalid = {
  status: 401,
  challenge: `${realm}, error="invalid_token", error_description="The bearer token is unknown or revoked"`,
  body: { error: 'The bearer token is unknown or revoked' },
};
const accepted = { status: 200, challenge: undefined, body: undefined };

interface Case {
  name: string;
  authorization?: (tokens: { valid: string; revoked: string }) => string;
  path?: (tokens: { valid: string }) => string;
  contentType?: string;
  body?: (tokens: { valid: string }) => string;
  expected: typeof missing | typeof accepted;
}

const cases: Case[] = [
  { name: 'no Authorization header', expected: missing },
  { name: 'Basic credentials', authorization: () => `Basic ${Buffer.from('alice:secret').toString('base64')}`, expected: missing },
  { name: 'the token under another scheme', authorization: ({ valid }) => `Token ${valid}`, expected: missing },
  { name: 'the token with no scheme', authorization: ({ valid }) => valid, expected: missing },
  { name: 'scheme joined to the token', authorization: ({ valid }) => `Bearer${valid}`, expected: missing },
  { name: 'Bearer with no token', authorization: () => 'Bearer', expected: missing },
  { name: 'Bearer, a space and an empty token', authorization: () => 'Bearer ', expected: missing },
  { name: 'Bearer and spaces only', authorization: () => 'Bearer    ', expected: missing },
  // RFC 9110 11.4: one or more SP separate the scheme from its credentials, never a tab.
  { name: 'a tab between scheme and token', authorization: ({ valid }) => `Bearer\t${valid}`, expected: missing },
  {
    name: 'the token in the query string only (RFC 6750 2.3, not offered)',
    path: ({ valid }) => `?access_token=${valid}`,
    expected: missing,
  },
  {
    name: 'the token in a form body only (RFC 6750 2.2, not offered)',
    contentType: 'application/x-www-form-urlencoded',
    body: ({ valid }) => `access_token=${valid}`,
    expected: missing,
  },
  { name: 'a well-formed token', authorization: ({ valid }) => `Bearer ${valid}`, expected: accepted },
  // RFC 9110 11.1: auth schemes are case-insensitive.
  { name: 'bearer in lower case', authorization: ({ valid }) => `bearer ${valid}`, expected: accepted },
  { name: 'BEARER in upper case', authorization: ({ valid }) => `BEARER ${valid}`, expected: accepted },
  { name: 'several spaces between scheme and token', authorization: ({ valid }) => `Bearer   ${valid}`, expected: accepted },
  { name: 'whitespace around the header value', authorization: ({ valid }) => `  Bearer ${valid} \t`, expected: accepted },
  { name: 'an unknown token', authorization: () => `Bearer dp_${'A'.repeat(32)}`, expected: invalid },
  { name: 'an unknown token without our prefix', authorization: () => 'Bearer mF_9.B5f-4.1JqM', expected: invalid },
  {
    name: 'the token in another case (secrets are case-sensitive)',
    authorization: ({ valid }) => `Bearer ${valid.toUpperCase()}`,
    expected: invalid,
  },
  { name: 'the token with a character cut off', authorization: ({ valid }) => `Bearer ${valid.slice(0, -1)}`, expected: invalid },
  { name: 'the token followed by another word', authorization: ({ valid }) => `Bearer ${valid} extra`, expected: invalid },
  { name: 'two tokens in one header', authorization: ({ valid, revoked }) => `Bearer ${valid}, Bearer ${revoked}`, expected: invalid },
  { name: 'a revoked token', authorization: ({ revoked }) => `Bearer ${revoked}`, expected: invalid },
  { name: 'a revoked token in lower case scheme', authorization: ({ revoked }) => `bearer ${revoked}`, expected: invalid },
];

t.test('bearer - every presentation of a token gets its exact status, challenge and body', async (t) => {
  const service = await startTestService(t);
  const valid = await service.tokenFor('alice', { quota: null, rate: { limit: 1_000, windowMs: 60_000 } });
  const revoked = await service.tokenFor('alice');
  const { accounts } = service.service;
  await accounts.revokeToken(accounts.tokenByDigest(digestToken(revoked))!.id, new Date().toISOString());

  for (const { name, authorization, path, contentType, body, expected } of cases) {
    const headers: Record<string, string> = { 'content-type': contentType ?? 'application/json' };
    if (authorization) headers.authorization = authorization({ valid, revoked });
    const answer = await post(service.url, searchPath + (path?.({ valid }) ?? ''), headers, body?.({ valid }) ?? json);
    t.test(name, async (t) => {
      t.equal(answer.status, expected.status, 'status');
      t.equal(answer.headers['www-authenticate'], expected.challenge, 'WWW-Authenticate');
      t.equal(answer.headers['content-type'], 'application/json', 'Content-Type');
      if (expected.status === 200) {
        t.match(JSON.parse(answer.body), { data: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
        t.equal(answer.headers['x-ratelimit-limit'], '1000', 'the account is known');
      } else {
        t.same(JSON.parse(answer.body), expected.body, 'body');
        t.equal(answer.headers['x-ratelimit-limit'], undefined, 'no limits are told to an unknown caller');
      }
    });
  }
});
