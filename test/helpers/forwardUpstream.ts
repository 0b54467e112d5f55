// Passes one upstream call on to an emulator and its answer back: for the loopback upstreams
// tests put in front of an emulator to watch or hold the service's calls.
import type { IncomingMessage, ServerResponse } from 'node:http';

export async function forwardUpstream(emulatorUrl: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // A token POST carries a small form body; every read is a GET without one, so only a POST is
  // read: a held GET whose client left meanwhile (a server that stopped) fails any read with
  // 'aborted', and that would end the test process.
  const body = request.method === 'POST' ? await bodyOf(request) : undefined;
  if (request.method === 'POST' && body === undefined) return;
  // fetch sets the length of the body it sends itself.
  const { 'content-length': _length, ...headers } = request.headers;
  return fetch(emulatorUrl + request.url!, {
    method: request.method,
    headers: headers as Record<string, string>,
    body,
    redirect: 'manual',
  }).then(
    async (answer) => {
      const body = Buffer.from(await answer.arrayBuffer());
      const headers = Object.fromEntries(
        [...answer.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection'].includes(name)),
      );
      response.writeHead(answer.status, headers).end(body);
    },
    () => void response.writeHead(502).end(),
  );
}

/** The request's body, or undefined when its client left before sending it all. */
async function bodyOf(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of request) chunks.push(chunk as Buffer);
  } catch {
    return undefined;
  }
  return Buffer.concat(chunks);
}
