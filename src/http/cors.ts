// Cross-origin access for browser clients, off unless the operator names the origins
// (docs/http.md#cors). Answers to an allowed origin carry its name back; a preflight
// (OPTIONS) says which method and headers the search accepts, and for how long to cache that.
import { limits } from '../config.js';
import type { Headers, Reply } from './reply.js';

/** The origins a browser may call from: a list, or every origin (`*`). */
export type CorsOrigins = ReadonlySet<string> | 'any';

/** Headers a browser script may read from an answer: the limits it is under and the request id. */
const exposedHeaders = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'Retry-After',
  'X-Request-Id',
].join(', ');

/**
 * `--cors` / DATAPOINTS_CORS: comma-separated origins (`https://app.example.com`,
 * `http://localhost:3000`) or `*`. Throws with the reason for anything else: a path, a
 * trailing slash, a scheme other than http(s).
 */
export function parseCorsOrigins(text: string): CorsOrigins {
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '*') return 'any';
  const origins = new Set<string>();
  for (const entry of entries) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry) {
      throw new Error(`'${entry}' is not an origin: give scheme://host[:port] (e.g. https://app.example.com), comma-separated, or *`);
    }
    origins.add(entry);
  }
  return origins;
}

export interface Cors {
  /** Headers for an answer to a request with this Origin header ('' when none). */
  answerHeaders(origin: string): Headers;
  /**
   * The answer to a preflight (OPTIONS) from this Origin: 204 with what the search accepts; an
   * origin not allowed gets a bare 204, which the browser reports as a CORS failure.
   */
  preflight(origin: string): Reply;
}

const none: Headers = [];
// The origin, Vary and exposed headers come with every answer (answerHeaders).
const allowedPreflight: Reply = {
  status: '204 No Content',
  body: '',
  headers: [
    ['Allow', 'POST, OPTIONS'],
    ['Access-Control-Allow-Methods', 'POST'],
    ['Access-Control-Allow-Headers', 'Authorization, Content-Type'],
    ['Access-Control-Max-Age', String(limits.corsMaxAgeSeconds)],
  ],
};
const refusedPreflight: Reply = { status: '204 No Content', body: '', headers: [['Allow', 'POST, OPTIONS']] };
const varyOnly: Headers = [['Vary', 'Origin']];

/** Without origins, no CORS header at all: the API answers exactly as before. */
export function createCors(origins: CorsOrigins | undefined): Cors {
  if (origins === undefined) return { answerHeaders: () => none, preflight: () => refusedPreflight };
  const allowed = (origin: string) => origin !== '' && (origins === 'any' || origins.has(origin));
  // Built once per origin: answers allocate nothing for their CORS headers.
  const answers = new Map<string, Headers>();
  return {
    answerHeaders(origin) {
      if (!allowed(origin)) return varyOnly;
      let headers = answers.get(origin);
      if (!headers) {
        headers = [
          ['Access-Control-Allow-Origin', origin],
          ['Vary', 'Origin'],
          ['Access-Control-Expose-Headers', exposedHeaders],
        ];
        if (answers.size < limits.maxCorsOriginsCached) answers.set(origin, headers);
      }
      return headers;
    },
    preflight(origin) {
      return allowed(origin) ? allowedPreflight : refusedPreflight;
    },
  };
}
