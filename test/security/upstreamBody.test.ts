// An upstream cannot make the service buffer without bound: bodies over 8 MiB are refused as
// they arrive, with or without a declared length, and the collection fails instead.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createUpstreamHttp } from '../../src/platforms/http.js';

const limit = 8 * 1024 * 1024;

async function serve(t: Test, handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

t.test('upstream body - at the limit it is read whole; one byte more fails, declared or chunked', async (t) => {
  const http = createUpstreamHttp();
  t.teardown(() => http.close());
  const url = await serve(t, (request, response) => {
    const size = Number(new URL(request.url!, 'http://x').searchParams.get('size'));
    if (request.url!.startsWith('/declared')) response.setHeader('content-length', size);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const more = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!response.write(part)) return void response.once('drain', more);
      }
      response.end();
    };
    more();
  });
  const signal = new AbortController().signal;
  for (const kind of ['declared', 'chunked']) {
    const whole = await http.get(`${url}/${kind}?size=${limit}`, {}, signal);
    t.equal(whole.body.length, limit, `${kind}: exactly 8 MiB is read`);
    await t.rejects(
      http.get(`${url}/${kind}?size=${limit + 1}`, {}, signal),
      { name: 'ResponseExceededMaxSizeError' },
      `${kind}: 8 MiB + 1 is refused`,
    );
  }
});
