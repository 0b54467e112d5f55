// Writes a whole response inside one cork, so status, headers and body leave in one syscall,
// and records it in the access log.
import type { AccessEntry, AccessLog } from './accessLog.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** Answer headers as name and value pairs, written in order. */
export type Headers = ReadonlyArray<readonly [string, string]>;

export interface Reply {
  status: string;
  /** '' for an answer without a body (a 204): no Content-Type, no Content-Length. */
  body: string;
  /** application/json unless said (a history answer as CSV: docs/history.md#csv). */
  contentType?: string;
  headers?: Headers | undefined;
}

/** One request from arrival to answer: what its answer and its access log line need. */
export interface Exchange extends AccessEntry {
  /** CORS headers for the request's Origin (none when CORS is off). */
  readonly cors: Headers;
  readonly logAccess: AccessLog;
}

export interface ExchangeSource {
  nextRequestId(): string;
  corsHeaders(origin: string): Headers;
  logAccess: AccessLog;
}

/** Reads what the answer needs from `req`, which is only valid until the handler returns. */
export function beginExchange(source: ExchangeSource, req: HttpRequest): Exchange {
  return {
    id: source.nextRequestId(),
    method: req.getCaseSensitiveMethod(),
    path: req.getUrl(),
    startedAt: performance.now(),
    account: undefined,
    cors: source.corsHeaders(req.getHeader('origin')),
    logAccess: source.logAccess,
  };
}

export function writeReply(res: HttpResponse, exchange: Exchange, reply: Reply, extraHeaders?: Headers): void {
  res.cork(() => {
    res.writeStatus(reply.status);
    if (reply.body !== '') res.writeHeader('Content-Type', reply.contentType ?? 'application/json');
    res.writeHeader('X-Request-Id', exchange.id);
    for (const [name, value] of exchange.cors) res.writeHeader(name, value);
    if (extraHeaders) for (const [name, value] of extraHeaders) res.writeHeader(name, value);
    if (reply.headers) for (const [name, value] of reply.headers) res.writeHeader(name, value);
    if (reply.body === '') res.endWithoutBody();
    else res.end(reply.body);
  });
  exchange.logAccess(exchange, reply.status);
}
