// A client that sends a whole oversized body at once, without waiting for `Expect:
// 100-continue`, must read the 413 rather than a connection reset (docs/http.md#request-bodies): the server reads and discards what is still coming (up to a bound) before it
// answers, so it never closes a connection on unread data.
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { limits } from '../../src/config.js';
import { searchPath, startTestService } from '../helpers/service.js';

interface RawAnswer {
  /** Everything the server sent before the connection ended. */
  text: string;
  /** The socket error, if the connection ended with one (ECONNRESET, EPIPE). */
  error?: string;
}

const rawClient = fileURLToPath(new URL('rawClient.mjs', import.meta.url));

/** Sends `request` `times` times from a client process, each on a new connection, written at once. */
function sendAtOnce(port: number, request: Buffer, times: number, untilClosed: boolean): Promise<RawAnswer[]> {
  const args = [rawClient, String(port), String(times), String(untilClosed)];
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (error, stdout) =>
      error
        ? reject(error)
        : resolve(
            stdout
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line)),
          ),
    );
    child.stdin!.end(request);
  });
}

const tooLargeBody = JSON.stringify({ error: `Request body exceeds the limit of ${limits.maxBodyBytes} bytes` });

/** 'complete 413' for an answer that is the whole 413 without a socket error, else what it was. */
const outcome = (answer: RawAnswer) =>
  answer.text.startsWith('HTTP/1.1 413 ') && answer.text.endsWith(`\r\n\r\n${tooLargeBody}`) && answer.error === undefined
    ? 'complete 413'
    : `${answer.error ?? 'no error'}: ${JSON.stringify(answer.text.slice(0, 40))}`;

async function setUp(t: Test) {
  const { service, tokenFor } = await startTestService(t);
  const token = await tokenFor('big', { plan: 'paid' });
  /** A search request with `body`, and any extra header lines. */
  const request = (body: Buffer, extra = '') =>
    Buffer.concat([
      Buffer.from(
        `POST ${searchPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n`,
        'latin1',
      ),
      body,
    ]);
  return { port: service.port, request };
}

const spaces = (bytes: number) => Buffer.alloc(bytes, 0x20);

t.test('body limit - a 2 MiB body written at once always gets the whole 413', async (t) => {
  const { port, request } = await setUp(t);
  const keepAlive = await sendAtOnce(port, request(spaces(2 * 1024 * 1024)), 20, false);
  t.same(keepAlive.map(outcome), Array(20).fill('complete 413'), 'keep-alive');
  // A client that asks to close after the answer: a server closing on unread data resets the
  // connection, the client's write fails with EPIPE and its answer may be lost.
  for (const mebibytes of [2, 6]) {
    const closing = await sendAtOnce(port, request(spaces(mebibytes * 1024 * 1024), 'Connection: close\r\n'), 20, true);
    t.same(closing.map(outcome), Array(20).fill('complete 413'), `${mebibytes} MiB, Connection: close`);
  }
});

t.test('body limit - after the 413 of a drained body the connection serves the next request', async (t) => {
  const { port, request } = await setUp(t);
  const socket = connect(port, '127.0.0.1');
  t.teardown(() => socket.destroy());
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  const answerEnding = (ending: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!received.endsWith(ending)) return;
        socket.off('data', check);
        resolve(received);
      };
      socket.on('data', check);
      socket.once('close', () => reject(new Error(`closed after ${JSON.stringify(received.slice(0, 60))}`)));
    });
  socket.write(request(spaces(limits.maxBodyBytes + 1)));
  const first = await answerEnding(tooLargeBody);
  t.match(first, /^HTTP\/1\.1 413 /);
  t.notMatch(first, /connection: close/i, 'the connection stays open');
  socket.write(request(Buffer.from('{}')));
  t.match(await answerEnding(`{"errors":["Resources can't be blank"]}`), /HTTP\/1\.1 422 /);
});

t.test('body limit - beyond the discarded amount the 413 closes the connection', async (t) => {
  const { port, request } = await setUp(t);
  // Declares more than it sends: the server stops reading at the bound, not at the end.
  const whole = request(spaces(limits.maxBodyBytes + limits.maxDiscardedBodyBytes + 2 * 1024 * 1024));
  const sent = whole.subarray(0, whole.length - 1024 * 1024);
  const [answer] = await sendAtOnce(port, sent, 1, true);
  t.match(answer!.text, /^HTTP\/1\.1 413 [\s\S]*\r\nConnection: close\r\n/i);
  t.ok(answer!.text.endsWith(`\r\n\r\n${tooLargeBody}`), 'the whole answer');
});
