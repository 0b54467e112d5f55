// Refusals that stay small however large the request (docs/api.md#a-41, docs/api.md#a-42): a body
// of half a million references, a stream unsubscribe of 16 KiB, a long unknown path.
import t from 'tap';
import { StreamClient } from '../push/streamClient.js';
import { searchPath, startTestService } from '../helpers/service.js';
import { RawConnection } from './rawConnection.js';

/** Just under the 1 MiB body limit: `{"resources":[0,0,...]}`, every reference invalid. */
function hugeBody(): { text: string; references: number } {
  const references = Math.floor((1024 * 1024 - 20) / 2);
  return { text: `{"resources":[${'0,'.repeat(references - 1)}0]}`, references };
}

t.test('error bounds - a 1 MiB body of invalid references gets a short 422 that says the rest was not checked', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const { text, references } = hugeBody();
  for (const path of [searchPath, '/api/v1/resources/history']) {
    const response = await fetch(ts.url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: text });
    const answer = await response.text();
    t.equal(response.status, 422, path);
    t.ok(answer.length < 2_000, `${path}: ${answer.length} bytes`);
    const { errors } = JSON.parse(answer) as { errors: string[] };
    t.equal(errors[0], 'Resources is too long (maximum is 10 resources)', path);
    t.equal(errors[1], 'Resources element 1 must be an object with platform, type and identifier', path);
    t.ok(errors.length <= 11, `${path}: ${errors.length} messages`);
    t.equal(errors.at(-1), `Resources after element 9 were not checked (${references} sent)`, path);
  }
  // Eleven valid references are checked whole: the limit's own message alone, as before.
  const eleven = Array.from({ length: 11 }, (_, index) => ({ platform: 'github', type: 'account', identifier: `user${index}` }));
  t.same((await ts.search(token, { resources: eleven })).body, { errors: ['Resources is too long (maximum is 10 resources)'] });
});

t.test('error bounds - a stream unsubscribe of 16 KiB is answered in a few hundred bytes', async (t) => {
  const ts = await startTestService(t);
  const client = await StreamClient.open(t, ts.url, await ts.tokenFor('alice'));
  // Each reference names its own unknown platform, so each would add its own message.
  const resources: Array<{ platform: string; type: string; identifier: string }> = [];
  const message = () => JSON.stringify({ type: 'unsubscribe', resources });
  while (message().length < 16 * 1024 - 60) resources.push({ platform: `p${resources.length}`, type: 'account', identifier: 'x' });
  const cut = message();
  client.send(cut);
  const answer = await client.next();
  t.equal(answer.status, 422);
  t.ok(JSON.stringify(answer).length < 2_000, `${JSON.stringify(answer).length} bytes answered`);
  t.match(answer.errors.at(-1), /^Resources after element \d+ were not checked \(\d+ sent\)$/);
});

t.test('error bounds - a 404 cuts the path it echoes', async (t) => {
  const ts = await startTestService(t);
  // Within the 4 KiB uWebSockets.js keeps of a request head that comes in pieces (docs/http.md#framing).
  const path = `/${'a'.repeat(3_000)}`;
  const connection = await RawConnection.open(ts.service.port);
  t.teardown(() => connection.destroy());
  connection.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const answer = await connection.next();
  t.equal(answer?.status, 404);
  t.same(answer && JSON.parse(answer.body), { error: `No such endpoint: GET ${path.slice(0, 100)}...` });
});
