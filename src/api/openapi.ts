// The OpenAPI 3.1 document of the service (docs/operations-endpoints.md#get-apiv1openapijson),
// built from the schemas the server validates requests with (./schema.ts) and the schemas of its
// answers (./responseSchemas.ts), never written by hand: a change to a schema changes the document.
import { limits, serveDefaults } from '../config.js';
import { platforms } from '../platforms/registry.js';
import { answerExamples, searchAnswerExample, searchRequestExample } from './openapiExamples.js';
import { requestSchemas } from './openapiRequest.js';
import {
  Datapoint,
  ErrorAnswer,
  headers,
  InternalErrorAnswer,
  LivenessAnswer,
  quotaHeaders,
  rateLimitHeaders,
  ReadinessAnswer,
  ReadinessProblem,
  ResourceResult,
  SearchAnswer,
  StreamTicketAnswer,
  ValidationErrorsAnswer,
  type HeaderSchema,
} from './responseSchemas.js';
import { HistoryAnswer, HistoryEntry, HistoryRequest, HistorySeries } from './historySchemas.js';

export const openApiPaths = {
  search: '/api/v1/resources/search',
  history: '/api/v1/resources/history',
  stream: '/api/v1/resources/stream',
  streamTickets: '/api/v1/resources/stream/tickets',
  document: '/api/v1/openapi.json',
  liveness: '/healthz',
  readiness: '/readyz',
} as const;

const answerSchemas = {
  SearchAnswer,
  ResourceResult,
  Datapoint,
  Error: ErrorAnswer,
  InternalError: InternalErrorAnswer,
  ValidationErrors: ValidationErrorsAnswer,
  StreamTicket: StreamTicketAnswer,
  Liveness: LivenessAnswer,
  Readiness: ReadinessAnswer,
  ReadinessProblem,
  HistoryRequest,
  HistoryAnswer,
  HistoryEntry,
  HistorySeries,
};

const schemas = { ...requestSchemas(), ...answerSchemas };

type SchemaName = 'SearchRequest' | keyof typeof answerSchemas;
const schemaRef = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

type HeaderSet = Record<string, HeaderSchema>;

/** Every header of `set`, required or not. */
const documented = (set: HeaderSet, required: boolean) =>
  Object.fromEntries(Object.entries(set).map(([name, header]) => [name, { ...header, required }]));

const requestIdHeader = documented({ 'X-Request-Id': headers.requestId }, true);
/** Every authenticated answer tells the rate limit; the quota only when the account has one. */
const limitHeaders = { ...requestIdHeader, ...documented(rateLimitHeaders, true), ...documented(quotaHeaders, false) };

function answer(description: string, schema: SchemaName, headerObjects: Record<string, unknown> = requestIdHeader, example?: unknown) {
  const json = example === undefined ? { schema: schemaRef(schema) } : { schema: schemaRef(schema), example };
  return { description, headers: headerObjects, content: { 'application/json': json } };
}

const unauthorized = answer(
  'The bearer token is missing, unknown or revoked',
  'Error',
  { ...requestIdHeader, ...documented({ 'WWW-Authenticate': headers.wwwAuthenticate }, true) },
  answerExamples.unauthorized,
);

const acceptedPairs = [...platforms.values()]
  .map((platform) => `${platform.code} (${Object.keys(platform.identifiers).join(', ')})`)
  .join('; ');

const searchOperation = {
  operationId: 'searchResources',
  summary: 'Datapoints of one or more resources',
  description:
    `Looks up 1 to ${limits.maxResourcesPerRequest} resources. A resource new to the service answers \`pending\` and is ` +
    'collected in the background; its datapoints appear on a later request. Checks run in this order: token (401), ' +
    'a suspended account (403), monthly quota (403), rate limit (429), body (413, 422). A request counts once it passes the token check and is ' +
    `not refused with 403 or 429. Accepted platforms and types: ${acceptedPairs}; each reference is one of ` +
    'the schemas `Reference.<platform>.<type>`, told apart by `platform` and then `type`, and its identifier follows ' +
    '`Identifier.<platform>.<type>`.',
  security: [{ bearerToken: [] }],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: schemaRef('SearchRequest'), example: searchRequestExample } },
  },
  responses: {
    '200': answer('One result per requested resource, in request order', 'SearchAnswer', limitHeaders, searchAnswerExample),
    '401': unauthorized,
    // docs/api.md#a-53: a suspended account's 403 carries no limit headers; the quota's carries them all.
    '403': answer(
      'The monthly quota is exhausted (the message gives its size and reset date, with every limit header), or the account is suspended (no limit headers)',
      'Error',
      { ...requestIdHeader, ...documented(rateLimitHeaders, false), ...documented(quotaHeaders, false) },
      answerExamples.quotaExhausted,
    ),
    '413': answer(`The body is larger than ${limits.maxBodyBytes} bytes`, 'Error', limitHeaders, answerExamples.bodyTooLarge),
    '422': answer('The body is not a valid search; every problem is listed', 'ValidationErrors', limitHeaders, answerExamples.invalid),
    '429': answer(
      'The rate limit is exhausted; retry after Retry-After seconds',
      'Error',
      { ...limitHeaders, ...documented({ 'Retry-After': headers.retryAfter }, true) },
      answerExamples.rateLimited,
    ),
    '500': answer(
      'An internal error; the server log holds the details under the request id',
      'InternalError',
      requestIdHeader,
      answerExamples.internal,
    ),
    '503': answer(
      'The service is shutting down, or cannot count requests right now (then with Retry-After)',
      'Error',
      { ...requestIdHeader, ...documented({ 'Retry-After': headers.retryAfter }, false) },
      answerExamples.unavailable,
    ),
  },
};

/** docs/history.md#api: admitted, counted and refused as a search; only the body and its answer differ. */
const historyOperation = {
  ...searchOperation,
  operationId: 'resourceHistory',
  summary: 'Datapoints of one or more resources over time',
  description:
    'Each resource as the search gives it (status; a resource new to the service starts being collected), with each ' +
    "datapoint's series over the range, oldest first, and its first, last and change. Admitted, counted and refused " +
    'exactly like a search. `Accept: text/csv` answers CSV: `platform,type,identifier,status,group,datapoint,at,value`, ' +
    'one row per reference, datapoint and point (RFC 4180).',
  requestBody: { required: true, content: { 'application/json': { schema: schemaRef('HistoryRequest') } } },
  responses: {
    ...searchOperation.responses,
    '200': {
      description: 'One entry per requested resource, in request order',
      headers: limitHeaders,
      content: { 'application/json': { schema: schemaRef('HistoryAnswer') }, 'text/csv': { schema: { type: 'string' } } },
    },
    '422': answer(
      "The body is not a valid history request (the search's messages, a bad range or interval); every problem is listed",
      'ValidationErrors',
      limitHeaders,
    ),
  },
};

/** docs/push.md: the messages themselves are described there, in the AsyncAPI style. */
const streamOperation = {
  operationId: 'streamResources',
  summary: 'A WebSocket of resource changes',
  description:
    'Upgraded to a WebSocket (subprotocol `datapoints.v1`) after authentication by `Authorization: Bearer` or by a ' +
    'ticket offered as the subprotocol `ticket.<ticket>`. Client messages subscribe to and unsubscribe from up to ' +
    `${limits.maxResourcesPerRequest} references each; a subscribe counts like a search. The server sends each ` +
    "resource's entry, in the search answer's shape, at once and on every change. Messages, limits and close codes: docs/push.md.",
  security: [{ bearerToken: [] }, {}],
  responses: {
    '101': { description: 'Switched to the WebSocket protocol' },
    '401': unauthorized,
    '426': answer('Not a WebSocket upgrade request', 'Error'),
    '429': answer(`The account has ${limits.push.maxConnectionsPerAccount} stream connections open on this server`, 'Error'),
    '503': answer('The service is shutting down', 'Error'),
  },
};

const streamTicketOperation = {
  operationId: 'createStreamTicket',
  summary: 'A single-use ticket that opens one stream',
  description:
    `For clients that cannot set headers on a WebSocket (browsers). Redeemable once, within ${limits.push.ticketTtlMs / 1000} s, ` +
    'by the upgrade of GET /api/v1/resources/stream; the stream belongs to the token that asked for it. Counts nothing.',
  security: [{ bearerToken: [] }],
  responses: {
    '201': answer('The ticket', 'StreamTicket'),
    '401': unauthorized,
    '503': answer('The service is shutting down', 'Error'),
  },
};

const publicOperation = (operationId: string, summary: string, responses: Record<string, unknown>) => ({
  get: { operationId, summary, security: [], responses },
});

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'datapoints',
    version: '1',
    description: `Public social-media counts (followers, likes, views...) of accounts and posts on ${platforms.size} platforms: ${[...platforms.keys()].join(', ')}.`,
  },
  // docs/api.md#openapi-servers: the document is served by the server it describes.
  servers: [
    { url: '/', description: 'The server that serves this document' },
    {
      url: '{scheme}://{host}',
      description: 'A server of your choice, for a copy of this document',
      variables: {
        scheme: { enum: ['https', 'http'], default: 'http' },
        host: { default: `localhost:${serveDefaults.port}`, description: 'Host and port the server listens on' },
      },
    },
  ],
  paths: {
    [openApiPaths.search]: { post: searchOperation },
    [openApiPaths.history]: { post: historyOperation },
    [openApiPaths.stream]: { get: streamOperation },
    [openApiPaths.streamTickets]: { post: streamTicketOperation },
    [openApiPaths.document]: publicOperation('openApiDocument', 'This document', {
      '200': {
        description: 'The OpenAPI 3.1 document',
        headers: requestIdHeader,
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    }),
    [openApiPaths.liveness]: publicOperation('liveness', 'The process is alive and answering', {
      '200': answer('Alive', 'Liveness'),
    }),
    [openApiPaths.readiness]: publicOperation('readiness', 'The service can answer searches', {
      '200': answer('Ready', 'Readiness'),
      '503': answer('Not ready; the problems say why', 'Readiness'),
    }),
  },
  components: {
    schemas,
    securitySchemes: {
      bearerToken: { type: 'http', scheme: 'bearer', description: 'An API token: `Authorization: Bearer <API_TOKEN>`' },
    },
  },
};
