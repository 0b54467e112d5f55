// Pipelined searches (docs/http.md#pipelining): 80 written in one write are answered in order, or
// the connection closes and what was not answered is not counted.
import t from 'tap';
import { searchPath, startTestService } from '../helpers/service.js';
import { RawConnection } from './rawConnection.js';

const octocat = '{"resources":[{"platform":"github","type":"account","identifier":"octocat"}]}';

t.test('pipelining - every counted search is answered, in order', async (t) => {
  const ts = await startTestService(t);
  const quota = 10_000;
  const token = await ts.tokenFor('acme', { quota, rate: { limit: 10_000, windowMs: 60_000 } });
  const request = `POST ${searchPath} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${octocat.length}\r\n\r\n${octocat}`;
  // Searches one at a time first, so the account holds quota reserved ahead, as a busy one does.
  for (let index = 0; index < 30; index++) t.equal((await ts.search(token, JSON.parse(octocat))).status, 200);
  let answered = 30;
  const rounds = 5;
  for (let round = 0; round < rounds; round++) {
    const connection = await RawConnection.open(ts.service.port);
    connection.write(request.repeat(80));
    const remaining: number[] = [];
    for (let index = 0; index < 80; index++) {
      const answer = await connection.next();
      if (!answer) break;
      t.equal(answer.status, 200, `round ${round}, answer ${index + 1}`);
      remaining.push(Number(answer.headers['x-quota-remaining']));
    }
    answered += remaining.length;
    t.same(
      remaining,
      [...remaining].sort((a, b) => b - a),
      `round ${round}: answers in the order of their counts`,
    );
    connection.destroy();
  }
  const last = await ts.search(token, JSON.parse(octocat));
  const counted = quota - Number(last.headers.get('x-quota-remaining')) - 1;
  t.equal(counted, answered, `${counted} counted for ${answered} answered`);
});
