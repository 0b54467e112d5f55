// Passes one upstream call on to an emulator and its answer back: for the loopback upstreams
// tests put in front of an emulator to watch or hold the service's calls.
import type { IncomingMessage, ServerResponse } from 'node:http';

export function forwardUpstream(emulatorUrl: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  return fetch(emulatorUrl + request.url!, { headers: request.headers as Record<string, string>, redirect: 'manual' }).then(
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
