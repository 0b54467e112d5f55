// Writes a whole response inside one cork, so status, headers and body leave in one syscall.
import type { HttpResponse } from './uws.js';

export interface Reply {
  status: string;
  body: string;
  headers?: ReadonlyArray<readonly [string, string]> | undefined;
}

export function writeReply(res: HttpResponse, requestId: string, reply: Reply, extraHeaders?: ReadonlyArray<readonly [string, string]>): void {
  res.cork(() => {
    res.writeStatus(reply.status);
    res.writeHeader('Content-Type', 'application/json');
    res.writeHeader('X-Request-Id', requestId);
    if (extraHeaders) for (const [name, value] of extraHeaders) res.writeHeader(name, value);
    if (reply.headers) for (const [name, value] of reply.headers) res.writeHeader(name, value);
    res.end(reply.body);
  });
}
