// Every limit at its boundary: resources per request (10/11), body size (1 MiB / +1 byte),
import { Readable } from 'node:stream';
// identifier length per registered platform and type (max / max+1), quota (q-1, q, q+1)
// and the rate window (docs/api.md#limits).
import t from 'tap';
import { request } from 'undici';
import { nextMonthStart } from '../../src/access/calendar.js';
import { limits } from '../../src/config.js';
import type { IdentifierRule } from '../../src/platforms/types.js';
import { identifierRules } from '../../src/platforms/registry.js';
import { sampleIdentifier } from '../faults/samples.js';
import { searchPath, startTestService } from '../helpers/service.js';

const alphabet = 'abcdefghij0123456789.-_@';

/** What validation accepts: the rule's syntax, and its refinement where it has one (a federated host's DNS limits). */
const acceptable = (rule: IdentifierRule, identifier: string) =>
  rule.pattern.test(identifier) && (rule.refines?.accepts(identifier) ?? true);

/** Grows a valid identifier one accepted character at a time; stops at `length` or when stuck. */
function grow(rule: IdentifierRule, identifier: string, length: number): string {
  let current = identifier;
  while (current.length < length) {
    let next: string | undefined;
    for (let position = current.length; position >= 0 && next === undefined; position--) {
      for (const char of alphabet) {
        const candidate = current.slice(0, position) + char + current.slice(position);
        if (acceptable(rule, candidate)) {
          next = candidate;
          break;
        }
      }
    }
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

t.test('limits - 10 resources are answered, 11 are refused with the docs/api.md#a-47 message', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('limits', { plan: 'paid' });
  const references = Array.from({ length: 11 }, (_, index) => ({ platform: 'github', type: 'account', identifier: `user${index}` }));
  const ten = await ts.search(token, { resources: references.slice(0, 10) });
  t.equal(ten.status, 200);
  t.equal(ten.body.data.length, 10);
  const eleven = await ts.search(token, { resources: references });
  t.equal(eleven.status, 422);
  t.same(eleven.body, { errors: ['Resources is too long (maximum is 10 resources)'] });
});

t.test('limits - a body of exactly 1 MiB is read; one byte more is 413, with or without Content-Length', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('limits', { plan: 'paid' });
  const json = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
  const padded = (size: number) => Buffer.from(json + ' '.repeat(size - json.length));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (body: Buffer | Readable) => {
    const response = await request(ts.url + searchPath, { method: 'POST', headers, body });
    return { status: response.statusCode, body: await response.body.json() };
  };
  const atLimit = await send(padded(limits.maxBodyBytes));
  t.equal(atLimit.status, 200, 'exactly 1 MiB');
  const tooLarge = { error: `Request body exceeds the limit of ${limits.maxBodyBytes} bytes` };
  t.same(await send(padded(limits.maxBodyBytes + 1)), { status: 413, body: tooLarge }, '1 MiB + 1 with Content-Length');
  async function* chunked(size: number) {
    for (let sent = 0; sent < size; sent += 64 * 1024) yield padded(size).subarray(sent, Math.min(size, sent + 64 * 1024));
  }
  t.same(
    await send(Readable.from(chunked(limits.maxBodyBytes + 1))),
    { status: 413, body: tooLarge },
    '1 MiB + 1 chunked, without Content-Length',
  );
  t.equal((await send(Readable.from(chunked(limits.maxBodyBytes)))).status, 200, 'exactly 1 MiB chunked');
});

t.test('limits - identifiers at their platform maximum are accepted, one character more is refused', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('limits', { plan: 'paid', rate: { limit: 1_000_000, windowMs: 60_000 } });
  for (const { platform, type, rule } of identifierRules) {
    const longest = grow(rule, sampleIdentifier(rule, 0), rule.maxLength);
    t.equal(longest.length, rule.maxLength, `${platform} ${type}: a valid identifier of ${rule.maxLength} characters exists`);
    const accepted = await ts.search(token, { resources: [{ platform, type, identifier: longest }] });
    t.equal(accepted.status, 200, `${platform} ${type}: ${rule.maxLength} characters accepted`);
    // One more: valid by the syntax where the syntax allows it, so only the length refuses it.
    const grown = grow(rule, longest, rule.maxLength + 1);
    const over = grown.length > rule.maxLength ? grown : `${longest}a`;
    const refused = await ts.search(token, { resources: [{ platform, type, identifier: over }] });
    const echoed = over.length > limits.maxEchoedIdentifier ? `${over.slice(0, limits.maxEchoedIdentifier)}...` : over;
    t.same(
      { status: refused.status, body: refused.body },
      {
        status: 422,
        body: {
          errors: [
            `Resources identifier '${echoed}' is not valid on platform '${platform}': ${rule.hint} (${rule.syntax}); this one is ${over.length} characters long, not ${rule.minLength === rule.maxLength ? rule.maxLength : `${rule.minLength} to ${rule.maxLength}`}`,
          ],
        },
      },
      `${platform} ${type}: ${over.length} characters refused`,
    );
  }
});

t.test('limits - a quota of q admits q-1 and q, refuses q+1 with the docs/api.md#a-49 message', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('quota', { quota: 3, rate: { limit: 100, windowMs: 60_000 } });
  const body = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
  const remaining: Array<string | null> = [];
  for (let index = 0; index < 3; index++) {
    const answer = await ts.search(token, body);
    t.equal(answer.status, 200, `request ${index + 1} of 3`);
    remaining.push(answer.headers.get('x-quota-remaining'));
  }
  t.same(remaining, ['2', '1', '0']);
  const over = await ts.search(token, body);
  const resetsOn = nextMonthStart(Date.now());
  t.equal(over.status, 403);
  t.same(over.body, { error: `Monthly quota of 3 requests exhausted; it resets on ${resetsOn}` });
  t.equal(over.headers.get('x-quota-remaining'), '0');
  t.equal(over.headers.get('x-quota-reset'), resetsOn);
});

t.test('limits - a rate limit of n admits n in its window and answers the next with 429 and Retry-After', async (t) => {
  const ts = await startTestService(t);
  const windowMs = 10_000;
  const token = await ts.tokenFor('rate', { quota: null, rate: { limit: 2, windowMs } });
  const body = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
  // Windows are aligned on the epoch (docs/api.md#a-48): start early in one, so that the three
  // requests fall in the same window however slowly the machine answers them. The service reads
  // its windows on the wall clock (startService takes no clock), so the edge is waited out.
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > 2_000) await new Promise((resolve) => setTimeout(resolve, windowMs - intoWindow));
  const statuses = [];
  for (let index = 0; index < 3; index++) statuses.push(await ts.search(token, body));
  t.same(
    statuses.map((answer) => answer.status),
    [200, 200, 429],
  );
  const limited = statuses[2]!;
  const retryAfter = Number(limited.headers.get('retry-after'));
  t.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter} s lies within the 10 s window`);
  t.same(limited.body, { error: `Rate limit exceeded; retry after ${retryAfter} seconds` });
  t.equal(limited.headers.get('x-ratelimit-remaining'), '0');
});
