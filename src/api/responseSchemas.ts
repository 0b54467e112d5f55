// The schemas of every answer of the search operation, for the OpenAPI document; objects are closed, so the
// tests catch an answer rendered as a string drifting from them (docs/operations-endpoints.md#get-apiv1openapijson).
import Type, { type Static, type TSchema } from 'typebox';
import { limits } from '../config.js';
import { metricsOfType, resourceTypes } from '../model.js';
import { platformCodes } from '../platforms/registry.js';

const datapointStatuses = ['available', 'unavailable', 'pending'] as const;
const resourceStatuses = ['pending', 'available', 'stale', 'unavailable', 'not_found'] as const;

export const Datapoint = Type.Object(
  {
    value: Type.Union([Type.Number(), Type.Boolean(), Type.Null()], {
      description: 'A count for metrics, a flag for the `verified` attribute; null when the platform does not report it',
    }),
    status: Type.Enum(datapointStatuses),
    collected_at: Type.String({ format: 'date-time', description: 'When the value was last determined, UTC with milliseconds' }),
    semantic: Type.String({ description: "The platform's own term for what the value counts; a display label only" }),
  },
  { additionalProperties: false },
);

/** docs/api.md#a-13, e.g. `account: followers, following, posts; post: views, ...`. */
const namesByType = resourceTypes.map((type) => `${type}: ${metricsOfType[type].join(', ')}`).join('; ');

const datapointsByName = (description: string) => Type.Record(Type.String(), Datapoint, { description });

export const ResourceResult = Type.Object(
  {
    platform: Type.Enum(platformCodes, { description: 'Echo of the request' }),
    type: Type.Enum(resourceTypes, { description: 'Echo of the request' }),
    identifier: Type.String({ description: 'Echo of the request, exactly as sent' }),
    status: Type.Enum(resourceStatuses),
    metrics: Type.Optional(datapointsByName(`Present once datapoints were collected, every name of its type: ${namesByType}`)),
    attributes: Type.Optional(datapointsByName('Present when the platform provides attributes, e.g. `verified` on x accounts')),
  },
  { additionalProperties: false },
);

export const SearchAnswer = Type.Object(
  {
    data: Type.Array(ResourceResult, {
      maxItems: limits.maxResourcesPerRequest,
      description: 'One entry per requested resource, in request order, duplicates removed',
    }),
  },
  { additionalProperties: false },
);

export const ErrorAnswer = Type.Object({ error: Type.String() }, { additionalProperties: false });

/** docs/push.md#tickets. */
export const StreamTicketAnswer = Type.Object(
  {
    ticket: Type.String({ description: 'Offer it as the WebSocket subprotocol `ticket.<ticket>`, beside `datapoints.v1`' }),
    expires_at: Type.String({ format: 'date-time', description: 'After this the ticket opens nothing' }),
  },
  { additionalProperties: false },
);

export const InternalErrorAnswer = Type.Object(
  {
    error: Type.Literal('Internal server error'),
    request_id: Type.String({ description: 'Quote it to the operator: the server log holds the details under it' }),
  },
  { additionalProperties: false },
);

export const ValidationErrorsAnswer = Type.Object(
  { errors: Type.Array(Type.String(), { minItems: 1, description: 'Every problem found in the request body' }) },
  { additionalProperties: false },
);

/** A header of the answers: its schema describes the header's value. */
export interface HeaderSchema {
  description: string;
  schema: TSchema;
}

const integer = (description: string): HeaderSchema => ({ description, schema: Type.Integer({ minimum: 0 }) });
const text = (description: string, options: Parameters<typeof Type.String>[0] = {}): HeaderSchema => ({
  description,
  schema: Type.String(options),
});

export const headers = {
  requestId: text('Identifies this request in the server log'),
  rateLimit: integer('Requests allowed per rate-limit window for the account'),
  rateRemaining: integer('Requests left in the current window'),
  rateReset: integer('When the current window ends, in Unix seconds'),
  quotaLimit: integer('Requests allowed per calendar month (UTC); absent for accounts without a monthly quota'),
  quotaRemaining: integer('Requests left this month; absent for accounts without a monthly quota'),
  quotaReset: text('The date the monthly quota resets (the first of next month, UTC); absent for accounts without one', {
    format: 'date',
  }),
  retryAfter: integer('Seconds to wait before the rate limit lets the next request through'),
  wwwAuthenticate: text('The bearer challenge; adds error="invalid_token" when a token was sent but is unknown or revoked', {
    pattern: '^Bearer realm="datapoints"',
  }),
} as const;

/** Names of the rate-limit headers every authenticated answer carries, and of the quota ones. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': headers.rateLimit,
  'X-RateLimit-Remaining': headers.rateRemaining,
  'X-RateLimit-Reset': headers.rateReset,
} as const;

export const quotaHeaders = {
  'X-Quota-Limit': headers.quotaLimit,
  'X-Quota-Remaining': headers.quotaRemaining,
  'X-Quota-Reset': headers.quotaReset,
} as const;

/** A problem that keeps the service from being ready: a component and what is wrong with it. */
export const ReadinessProblem = Type.Object(
  {
    component: Type.String(),
    message: Type.String(),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'When the problem was first reported' })),
    count: Type.Optional(Type.Integer({ minimum: 1, description: 'How many times it was reported since then' })),
  },
  { additionalProperties: false },
);
export type ReadinessProblem = Static<typeof ReadinessProblem>;

export const ReadinessAnswer = Type.Object(
  { ready: Type.Boolean(), problems: Type.Array(ReadinessProblem, { description: 'Empty when ready' }) },
  { additionalProperties: false },
);

export const LivenessAnswer = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });
