// What the facebook, instagram and threads collectors share of the Meta Graph API family: the Graph
// version they call and the classification of its answers (docs/platforms.md#the-platform-core).
import Type from 'typebox';
import { failed, notFound, rateLimited, type CollectionOutcome } from '../../model.js';
import { header, type UpstreamResponse } from '../http.js';
import { jsonBody, retryAtOf, unexpectedStatus } from '../upstream.js';

/** The graph.facebook.com version facebook and instagram call (threads has its own, v1.0). */
export const facebookGraphVersion = 'v23.0';

const graphErrorBody = jsonBody(
  Type.Object({
    error: Type.Object({ message: Type.String(), code: Type.Integer(), error_subcode: Type.Optional(Type.Integer()) }),
  }),
);

/**
 * graph.facebook.com and graph.threads.net answer every failure with one error object,
 * {"error":{"message","type","code","error_subcode","fbtrace_id"}}
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
export interface GraphError {
  message: string;
  code: number;
  error_subcode?: number | undefined;
}

/**
 * Throttling codes: 4 app, 17 user, 32 page, 613 per-endpoint limit, and 80001-80014 the
 * business-use-case limits (error-handling guide, "Rate limiting" rows).
 */
export function isGraphRateLimit(code: number): boolean {
  return code === 4 || code === 17 || code === 32 || code === 613 || (code >= 80_001 && code <= 80_014);
}

/** Code 100 / subcode 33: "Object with ID ... does not exist"; the Graph's answer for an unknown id. */
export const isUnknownObject = (error: GraphError) => error.code === 100 && error.error_subcode === 33;

const usageEntry = Type.Object({ estimated_time_to_regain_access: Type.Integer({ minimum: 0 }) });
const businessUseCaseUsage = jsonBody(Type.Record(Type.String(), Type.Array(usageEntry)));

/**
 * When a throttled caller may come back: the business-use-case header's
 * `estimated_time_to_regain_access` (minutes), else Retry-After, else the shared default.
 */
export function graphRetryAt(response: UpstreamResponse, now: number): number {
  const usage = businessUseCaseUsage.parse(header(response, 'x-business-use-case-usage') ?? '');
  const minutes = usage
    ? Math.max(
        0,
        ...Object.values(usage)
          .flat()
          .map((entry) => entry.estimated_time_to_regain_access),
      )
    : 0;
  return minutes > 0 ? now + minutes * 60_000 : retryAtOf(response, now);
}

/**
 * A non-200 Graph answer as an outcome: a throttling code or HTTP 429 is rateLimited; the
 * platform's own "does not exist" answer (per `isNotFound`) is notFound; every other error
 * is failed (docs/api.md#a-26: never notFound).
 */
export function graphFailure(response: UpstreamResponse, now: number, isNotFound: (error: GraphError) => boolean): CollectionOutcome {
  const error = graphErrorBody.parse(response.body)?.error;
  if (response.status === 429 || (error && isGraphRateLimit(error.code))) return rateLimited(graphRetryAt(response, now));
  if (!error) return unexpectedStatus(response);
  if (isNotFound(error)) return notFound;
  const subcode = error.error_subcode === undefined ? '' : `/${error.error_subcode}`;
  return failed(`graph error ${error.code}${subcode}: ${error.message}`);
}

/** One Graph answer as an outcome: 200 goes to `parse`, anything else to `graphFailure`. */
export function graphOutcome(
  response: UpstreamResponse,
  now: number,
  isNotFound: (error: GraphError) => boolean,
  parse: (body: string) => CollectionOutcome,
): CollectionOutcome {
  return response.status === 200 ? parse(response.body) : graphFailure(response, now, isNotFound);
}
