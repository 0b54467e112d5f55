// What uWebSockets.js 20.30's own parser does with requests it cannot parse (docs/http.md#framing):
// none reaches the service, so none can be answered; each connection closes, never answered.
// The malformed heads wait out the parser's idle timeout (about 10 s), all at once here.
import t from 'tap';
import { searchPath, startTestService } from '../helpers/service.js';
import { RawConnection } from './rawConnection.js';

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

const unparsed: Record<string, string> = {
  'HTTP/1.0': head(['GET /healthz HTTP/1.0', 'Host: x']),
  'HTTP/2.0': head(['GET /healthz HTTP/2.0', 'Host: x']),
  'a space before the colon': head(['GET /healthz HTTP/1.1', 'Host : x']),
  'an obs-fold': head(['GET /healthz HTTP/1.1', 'Host: x', 'X-Folded: a', ' b']),
  'bare LF line ends': 'GET /healthz HTTP/1.1\nHost: x\n\n',
  'a NUL in a header': head(['GET /healthz HTTP/1.1', 'Host: x\0y']),
  'an absolute-form target': head(['GET http://x/healthz HTTP/1.1', 'Host: x']),
  'more headers than the parser holds': head([
    'GET /healthz HTTP/1.1',
    'Host: x',
    ...Array.from({ length: 60 }, (_, index) => `X-${index}: v`),
  ]),
  'no Host': head(['GET /healthz HTTP/1.1']),
  'a malformed head over 4 KiB': head(['GET /healthz HTTP/1.0', 'Host: x', `X-Pad: ${'a'.repeat(5_000)}`]),
  'an unknown method': head(['FOO /healthz HTTP/1.1', 'Host: x']),
  'a Content-Length that is not a number': head([`POST ${searchPath} HTTP/1.1`, 'Host: x', 'Content-Length: 0x4f']),
  'Content-Length beside Transfer-Encoding': head([
    `POST ${searchPath} HTTP/1.1`,
    'Host: x',
    'Content-Length: 5',
    'Transfer-Encoding: chunked',
  ]),
};

t.test('parser limits - requests the library cannot parse are closed, never answered', async (t) => {
  const ts = await startTestService(t);
  await Promise.all(
    Object.entries(unparsed).map(async ([name, bytes]) => {
      const connection = await RawConnection.open(ts.service.port);
      connection.write(bytes);
      await connection.closed;
      t.equal(connection.rest, '', `${name}: closed without an answer`);
    }),
  );
  // Well-formed, the same request is answered: the cases above differ by their framing only.
  const connection = await RawConnection.open(ts.service.port);
  t.teardown(() => connection.destroy());
  connection.write(head(['GET /healthz HTTP/1.1', 'Host: x', ...Array.from({ length: 40 }, (_, index) => `X-${index}: v`)]));
  t.equal((await connection.next())?.status, 200, '41 headers are within the parser');
});
