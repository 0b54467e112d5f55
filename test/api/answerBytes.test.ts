// The answers' buffer (src/api/answerBytes.ts): text, ASCII or not, and copied bytes come out as
// the UTF-8 of the same text joined, also past the buffer's first size; each answer starts afresh.
import t from 'tap';
import { AnswerBytes } from '../../src/api/answerBytes.js';

t.test('answer bytes - text and copied bytes are the UTF-8 of the joined text', async (t) => {
  const bytes = new AnswerBytes(131_072);
  const kept = Buffer.from('[{"at":"2026-11-25","value":9120},{"at":"2026-11-26","value":9134}]');
  bytes.begin();
  bytes.write('{"identifier":"zoë-✓-🐙"');
  bytes.copy(kept, 1, kept.length - 1);
  bytes.write(',');
  bytes.write(`"${'é'.repeat(300)}"`);
  bytes.write('}');
  t.equal(bytes.end().toString(), `{"identifier":"zoë-✓-🐙"${kept.toString().slice(1, -1)},"${'é'.repeat(300)}"}`);

  bytes.begin();
  const long = Buffer.from('x'.repeat(100_000));
  for (let index = 0; index < 3; index++) {
    bytes.write(`${index}:`);
    bytes.copy(long);
  }
  const answer = bytes.end();
  t.equal(answer.length, 3 * 100_002, 'grown past its first 128 KB, keeping what was written');
  t.equal(answer.toString(), `0:${'x'.repeat(100_000)}1:${'x'.repeat(100_000)}2:${'x'.repeat(100_000)}`);
});
