// Every error the API answers, with its HTTP status and message, in one registry
// (docs/api.md#errors). Bodies: `{"error": ...}`, or `{"errors": [...]}` for 422.
import { admissionMessages } from '../access/admissionMessages.js';
import { limits } from '../config.js';

export interface ApiError {
  status: string;
  body: string;
  headers?: Array<[string, string]>;
  /** The connection closes after this answer (docs/http.md#framing). */
  close?: boolean;
}

const single = (status: string, message: string, headers?: Array<[string, string]>): ApiError => ({
  status,
  body: JSON.stringify({ error: message }),
  headers,
});

const realm = 'Bearer realm="datapoints"';

/** docs/http.md#framing: refused before the body is read; the connection closes after the answer. */
const closing = (status: string, message: string): ApiError => ({ ...single(status, message), close: true });

/** docs/api.md#a-42: an echoed path is cut to its first characters. */
function cutEcho(text: string): string {
  return text.length > limits.maxEchoedIdentifier ? `${text.slice(0, limits.maxEchoedIdentifier)}...` : text;
}

export const apiErrors = {
  /** docs/api.md#a-36: no credentials at all, so no error code (RFC 6750 3.1). */
  missingToken: single('401 Unauthorized', 'Authentication required: send Authorization: Bearer <API_TOKEN>', [
    ['WWW-Authenticate', realm],
  ]),
  invalidToken: single('401 Unauthorized', 'The bearer token is unknown or revoked', [
    ['WWW-Authenticate', `${realm}, error="invalid_token", error_description="The bearer token is unknown or revoked"`],
  ]),
  quotaExhausted: (quota: number, resetsOn: string) => single('403 Forbidden', admissionMessages.quotaExhausted(quota, resetsOn)),
  accountSuspended: single('403 Forbidden', admissionMessages.accountSuspended),
  rateLimited: (retryAfterSeconds: number) =>
    single('429 Too Many Requests', admissionMessages.rateLimited(retryAfterSeconds), [['Retry-After', String(retryAfterSeconds)]]),
  /** `drained` false: the rest of the body is not read, so the connection closes after the answer. */
  bodyTooLarge: (maxBytes: number, drained: boolean) =>
    single('413 Content Too Large', `Request body exceeds the limit of ${maxBytes} bytes`, drained ? undefined : [['Connection', 'close']]),
  invalid: (messages: string[]): ApiError => ({ status: '422 Unprocessable Entity', body: JSON.stringify({ errors: messages }) }),
  /** docs/api.md#a-42: a long path is cut, as every echo is. */
  notFound: (method: string, path: string) => single('404 Not Found', `No such endpoint: ${method} ${cutEcho(path)}`),
  methodNotAllowed: (method: string, allowed: string) =>
    single('405 Method Not Allowed', `Method ${method} is not allowed here; use ${allowed}`, [['Allow', allowed]]),
  internal: (requestId: string) => ({
    status: '500 Internal Server Error',
    body: JSON.stringify({ error: 'Internal server error', request_id: requestId }),
  }),
  unavailable: single('503 Service Unavailable', 'The service is shutting down', [['Connection', 'close']]),
  /** docs/push.md#authentication: a ticket is good once, for a short while. */
  invalidTicket: single('401 Unauthorized', 'The stream ticket is unknown, expired or already used', [
    ['WWW-Authenticate', `${realm}, error="invalid_token", error_description="The stream ticket is unknown, expired or already used"`],
  ]),
  /** docs/push.md#limits. */
  tooManyStreams: (limit: number) =>
    single('429 Too Many Requests', `This account has ${limit} stream connections open on this server, its limit`),
  upgradeRequired: single('426 Upgrade Required', 'This endpoint is a WebSocket: send an Upgrade: websocket request', [
    ['Upgrade', 'websocket'],
  ]),
  /**
   * docs/api.md#a-39: a counted request whose count could not be recorded (the quota ledger is
   * unreachable, as NATS in a cluster, or refuses the write); it is never answered uncounted.
   */
  countUnavailable: (retryAfterSeconds: number) =>
    single('503 Service Unavailable', `Requests cannot be counted right now; retry after ${retryAfterSeconds} seconds`, [
      ['Retry-After', String(retryAfterSeconds)],
    ]),
  /** docs/http.md#framing: two Content-Length headers, even equal ones. */
  ambiguousLength: closing('400 Bad Request', 'Content-Length must be sent once'),
  /** docs/http.md#framing: this server decodes chunked bodies only, and only one coding. */
  unsupportedCoding: closing('501 Not Implemented', 'Transfer-Encoding must be chunked alone; no other coding is supported'),
  /** docs/http.md#framing: answered before the body is sent, so the connection closes. */
  expectedBodyTooLarge: (maxBytes: number) => closing('413 Content Too Large', `Request body exceeds the limit of ${maxBytes} bytes`),
  /** docs/http.md#framing, RFC 6750 3.1: which of two credentials is meant cannot be known. */
  repeatedAuthorization: single('400 Bad Request', 'Send one Authorization header, not several', [
    ['WWW-Authenticate', `${realm}, error="invalid_request", error_description="Send one Authorization header, not several"`],
  ]),
  /** src/access/accountTable.ts: one server admits for at most limits.accountSlots accounts. */
  noAccountRoom: single('503 Service Unavailable', admissionMessages.noAccountRoom),
} as const;
