// Writes a whole response inside one cork, so status, headers and body leave in one syscall,
// and records it in the access log.
import { type LimitFigures, limitHeaderLines } from '../access/limitHeaders.js';
import type { AccessEntry, AccessLog } from './accessLog.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** Answer headers as name and value pairs, written in order. */
export type Headers = ReadonlyArray<readonly [string, string]>;

export interface Reply {
  status: string;
  /** '' for an answer without a body (a 204): no Content-Type, no Content-Length. Bytes are UTF-8. */
  body: string | Uint8Array;
  /** application/json unless said (a history answer as CSV: docs/history.md#csv). */
  contentType?: string;
  headers?: Headers | undefined;
  /** Closes the connection once written (uWS adds `Connection: close`): docs/http.md#framing. */
  close?: boolean | undefined;
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

/**
 * Writes the answer in one cork with three native calls: the status, one header whose value
 * carries every later header as its own `\r\nName: value` line (uWS writes a value as given,
 * so the bytes on the wire are those of one call per header, docs/api.md#a-48), and the body.
 * `limits` are the admission's figures, written after the CORS headers.
 */
export function writeReply(res: HttpResponse, exchange: Exchange, reply: Reply, limits?: LimitFigures): void {
  let first = 'X-Request-Id';
  let rest = exchange.id;
  if (reply.body.length !== 0) {
    first = 'Content-Type';
    rest = `${reply.contentType ?? 'application/json'}\r\nX-Request-Id: ${exchange.id}`;
  }
  for (const [name, value] of exchange.cors) rest += `\r\n${name}: ${value}`;
  if (limits) rest += limitHeaderLines(limits);
  if (reply.headers) for (const [name, value] of reply.headers) rest += `\r\n${name}: ${value}`;
  pending.res = res;
  pending.status = reply.status;
  pending.first = first;
  pending.rest = rest;
  pending.body = reply.body;
  pending.close = reply.close === true;
  res.cork(writePending);
  pending.res = undefined;
  pending.body = '';
  exchange.logAccess(exchange, reply.status);
}

/** What the one cork writes: set just before `cork`, which calls back at once, so no closure is made per answer. */
const pending = {
  res: undefined as HttpResponse | undefined,
  status: '',
  first: '',
  rest: '',
  body: '' as Reply['body'],
  close: false,
};

function writePending(): void {
  const res = pending.res!;
  res.writeStatus(pending.status);
  res.writeHeader(pending.first, pending.rest);
  if (pending.body.length === 0) res.endWithoutBody();
  else res.end(pending.body, pending.close);
}
