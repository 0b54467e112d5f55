// The Graph API's own answers as the emulator sends them (facebook, instagram, threads):
// JSON bodies, the error object of the error-handling guide, and its throttling headers.
import { cutOffJson, jsonReply } from '../emulatorReplies.js';
import type { EmulatorReply } from '../emulatorContract.js';

export const graphJson = (status: number, body: unknown, headers: Record<string, string> = {}): EmulatorReply =>
  jsonReply(status, body, { 'content-type': 'application/json; charset=UTF-8', 'x-fb-trace-id': 'AbCdEfGhIjK', ...headers });

export interface GraphErrorFields {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
}

export const graphErrorReply = (status: number, error: GraphErrorFields): EmulatorReply =>
  graphJson(status, { error: { ...error, fbtrace_id: 'AWs1xK9cQn2dPZ7vVh3yZqL' } });

/**
 * Code 4 "Application request limit reached" with the usage header Meta sends when an app
 * is throttled; the header tells how many minutes until calls are allowed again.
 */
export const graphRateLimitReply = (objectId: string, type: string) =>
  graphJson(
    400,
    {
      error: {
        message: '(#4) Application request limit reached',
        type: 'OAuthException',
        is_transient: true,
        code: 4,
        fbtrace_id: 'A3kq2VdXl9Rr0c1',
      },
    },
    {
      'x-app-usage': JSON.stringify({ call_count: 100, total_cputime: 12, total_time: 31 }),
      'x-business-use-case-usage': JSON.stringify({
        [objectId]: [{ type, call_count: 100, total_cputime: 12, total_time: 31, estimated_time_to_regain_access: 5 }],
      }),
    },
  );

export const graphMalformedReply = cutOffJson('{"id":"1784', 'application/json; charset=UTF-8');

/** Code 104: what the Graph answers a request that carries no access token. */
export const graphMissingTokenReply = graphErrorReply(400, {
  message: 'An access token is required to request this resource.',
  type: 'OAuthException',
  code: 104,
});
