// The messages of the resource stream (docs/push.md#messages): the client's, checked by one
// compiled schema, and the server's, written as JSON text. Entries are the search answer's own
// entries (src/api/searchResponse.ts), so a client parses one shape for both.
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { limits } from '../config.js';
import { admissionMessages } from '../access/admissionMessages.js';

/**
 * What every client message must be before its resources are looked at: an object with a known
 * `type`. Its `resources` are then checked exactly as a search body's (src/api/validation.ts).
 */
export const ClientMessage = Type.Object({ type: Type.Union([Type.Literal('subscribe'), Type.Literal('unsubscribe')]) });
export type ClientMessage = Static<typeof ClientMessage>;

const clientMessageValidator = Compile(ClientMessage);

export type ParsedMessage = { ok: true; message: ClientMessage & Record<string, unknown> } | { ok: false; error: string };

export const messageErrors = {
  notJson: 'Message must be valid JSON',
  noType: "Message must be a JSON object whose type is 'subscribe' or 'unsubscribe'",
  tooManySubscriptions: `Subscriptions would exceed the limit of ${limits.push.maxSubscriptionsPerConnection} per connection`,
} as const;

export function parseClientMessage(text: string): ParsedMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: messageErrors.notJson };
  }
  return isClientMessage(parsed) ? { ok: true, message: parsed } : { ok: false, error: messageErrors.noType };
}

function isClientMessage(value: unknown): value is ClientMessage & Record<string, unknown> {
  return clientMessageValidator.Check(value);
}

/** docs/push.md#close-codes. */
export const closeCodes = {
  goingAway: { code: 1001, reason: 'The service is shutting down' },
  binary: { code: 1003, reason: 'Binary messages are not accepted; send JSON text' },
  tooManyQueued: {
    code: 1008,
    reason: `More than ${limits.push.maxQueuedBytes} bytes of messages waiting; wait for answers before sending more`,
  },
  tooBig: { code: 1009, reason: `Message exceeds the limit of ${limits.push.maxMessageBytes} bytes` },
  revoked: { code: 4001, reason: 'The bearer token is unknown or revoked' },
  slowConsumer: { code: 4002, reason: `More than ${limits.push.maxBufferedBytes} bytes unread; read faster` },
  suspended: { code: 4003, reason: admissionMessages.accountSuspended },
} as const;

/** The rate and quota headers of an admitted or refused subscribe, as one object (docs/api.md#a-48). */
export function limitsObject(headers: ReadonlyArray<readonly [string, string]>): string {
  let text = '{';
  for (let index = 0; index < headers.length; index++) {
    const [name, value] = headers[index]!;
    text += `${index > 0 ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return `${text}}`;
}

/** `{"type":"subscribed","limits":{...},"data":[...]}` from a search answer's `{"data":[...]}`. */
export function subscribedMessage(limitHeaders: ReadonlyArray<readonly [string, string]>, searchBody: string): string {
  return `{"type":"subscribed","limits":${limitsObject(limitHeaders)},${searchBody.slice(1)}`;
}

export function unsubscribedMessage(references: ReadonlyArray<{ platform: string; type: string; identifier: string }>): string {
  return JSON.stringify({
    type: 'unsubscribed',
    data: references.map(({ platform, type, identifier }) => ({ platform, type, identifier })),
  });
}

/** An error: one message (`error`) or a list (`errors`, as a 422), with the status it stands for. */
export function errorMessage(
  status: number,
  message: string | readonly string[],
  limitHeaders?: ReadonlyArray<readonly [string, string]>,
): string {
  const body = typeof message === 'string' ? `"error":${JSON.stringify(message)}` : `"errors":${JSON.stringify(message)}`;
  const limitsPart = limitHeaders ? `,"limits":${limitsObject(limitHeaders)}` : '';
  return `{"type":"error","status":${status},${body}${limitsPart}}`;
}

/** The start of an update for one reference as sent; the view's entryEnd and `]}` complete it. */
export function updatePrefix(platform: string, type: string, identifier: string): string {
  return `{"type":"update","data":[{"platform":"${platform}","type":"${type}","identifier":${JSON.stringify(identifier)}`;
}
