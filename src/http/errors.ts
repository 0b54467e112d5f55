// Every error the API answers, with its HTTP status and message, in one registry
// (docs/api.md#errors). Bodies: `{"error": ...}`, or `{"errors": [...]}` for 422.
import { admissionMessages } from '../access/admissionMessages.js';

export interface ApiError {
  status: string;
  body: string;
  headers?: Array<[string, string]>;
}

const single = (status: string, message: string, headers?: Array<[string, string]>): ApiError => ({
  status,
  body: JSON.stringify({ error: message }),
  headers,
});

const realm = 'Bearer realm="datapoints"';

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
  notFound: (method: string, path: string) => single('404 Not Found', `No such endpoint: ${method} ${path}`),
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
  /** src/access/accountTable.ts: one server admits for at most limits.accountSlots accounts. */
  noAccountRoom: single('503 Service Unavailable', admissionMessages.noAccountRoom),
} as const;
