// Slow and abandoned clients over raw sockets: a body sent byte by byte, connections dropped
// mid-body or left stalled, must neither block other clients nor leak (docs/http.md).
import t from 'tap';
import { connect, type Socket } from 'node:net';
import { limits } from '../../src/config.js';
import { searchPath, startTestService, type TestService } from '../helpers/service.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });

function rawSocket(ts: TestService): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(ts.service.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

const head = (token: string, length: number) =>
  `POST ${searchPath} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Everything the server sends until it has sent a whole response with a body. */
function response(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      // Counted in bytes, as Content-Length is, and decoded once whole.
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received.toString('latin1'));
      if (end >= 0 && length && received.length >= end + 4 + Number(length[1])) resolve(received.toString('utf8'));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('slow clients - a body sent byte by byte is answered, and does not hold up other clients', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('slow', { plan: 'paid' });
  const slow = await rawSocket(ts);
  t.teardown(() => slow.destroy());
  let slowAnswered = false;
  const answered = response(slow).then((text) => {
    slowAnswered = true;
    return text;
  });
  slow.write(head(token, Buffer.byteLength(body)));
  // Every byte but the last, one at a time, while the other searches run: the slow request
  // stays incomplete until they are all answered, whatever the speed of the machine.
  const bytes = Buffer.from(body);
  const trickle = (async () => {
    for (const byte of bytes.subarray(0, -1)) {
      slow.write(Buffer.of(byte));
      await sleep(5); // the slow client's pace, on purpose: no wait for an event, nothing asserted on it
    }
  })();
  for (let index = 0; index < 50; index++) {
    const answer = await ts.search(token, JSON.parse(body));
    t.equal(answer.status, 200);
  }
  await trickle;
  t.notOk(slowAnswered, '50 other searches were answered while the slow body was still arriving');
  slow.write(bytes.subarray(-1));
  const text = await answered;
  t.match(text, /^HTTP\/1\.1 200 OK\r\n/, 'the slow client gets its answer once its body is whole');
});

t.test('slow clients - connections dropped mid-body or stalled leak nothing and block no one', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('dropper', { plan: 'paid' });
  const stalled: Socket[] = [];
  for (let index = 0; index < 100; index++) {
    const socket = await rawSocket(ts);
    socket.on('error', () => undefined);
    socket.write(head(token, 1_000) + body.slice(0, 10));
    if (index % 2 === 0) socket.destroy();
    else stalled.push(socket);
  }
  await sleep(50);
  const answer = await ts.search(token, JSON.parse(body));
  t.equal(answer.status, 200, 'the service answers others while 50 bodies are stalled and 50 were dropped');
  for (const socket of stalled) socket.destroy();
  await sleep(50);
  // Requests whose clients went away are owed nothing: a graceful stop does not wait for them.
  const stopping = Date.now();
  await ts.service.stop();
  const stopMs = Date.now() - stopping;
  // Owed an answer, the stop would wait out the grace: any shorter stop shows it owed none.
  t.ok(stopMs < limits.shutdownGraceMs, `graceful stop took ${stopMs} ms, not the ${limits.shutdownGraceMs} ms shutdown grace`);
});

t.test('slow clients - a character split between body chunks is read whole', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('split', { plan: 'paid' });
  // Not a valid GitHub login, so the 422 echoes it: the echo shows how the body was decoded.
  const identifier = 'caf\u00e9-\u{1F600}';
  const split = Buffer.from(JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier }] }));
  const socket = await rawSocket(ts);
  t.teardown(() => socket.destroy());
  const answered = response(socket);
  socket.write(head(token, split.length));
  // One byte at a time: every multi-byte character arrives in pieces, in separate chunks.
  for (const byte of split) {
    socket.write(Buffer.of(byte));
    await sleep(2); // paced on purpose: each byte arrives as a chunk of its own
  }
  const text = await answered;
  t.match(text, /^HTTP\/1\.1 422 /, 'the invalid identifier is refused');
  t.ok(text.includes(`'${identifier}'`), 'and echoed with every character intact');
});
