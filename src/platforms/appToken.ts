// An app access token from a platform's OAuth 2.0 client-credentials grant (RFC 6749 section
// 4.4): asked for when first needed, shared by every call until shortly before it expires, and
// asked for again once the platform refuses it (docs/platforms.md#app-tokens).
import Type from 'typebox';
import { failed, type CollectionOutcome } from '../model.js';
import type { UpstreamResponse } from './http.js';
import { refusal } from './lookups.js';
import type { CollectorContext } from './types.js';
import { jsonBody, unparsable } from './upstream.js';

/** The token endpoint's POST: its URL, headers (the client's credentials) and form body. */
export interface TokenRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const tokenBody = jsonBody(Type.Object({ access_token: Type.String({ minLength: 1 }), expires_in: Type.Integer({ minimum: 1 }) }));

/** RFC 6749 section 5.2: a bad client or grant is a 400 or 401; some platforms answer 403. */
const credentialRefusals: readonly number[] = [400, 401, 403];

/** A token is given up this long before the platform says it expires, so no call carries a stale one. */
export const tokenMarginMs = 60_000;

export interface AppToken {
  /**
   * GETs with a token: `call` is given the token and makes the request. A 401 answer drops the
   * token and `call` runs once more with a new one. The outcome instead of an answer when no token
   * can be had (rate limited, credentials refused, unreadable answer).
   */
  authorized(call: (token: string) => Promise<UpstreamResponse>, signal: AbortSignal): Promise<UpstreamResponse | CollectionOutcome>;
}

export function appToken(context: CollectorContext, platform: string, request: () => TokenRequest): AppToken {
  let current: { token: string; expiresAt: number } | undefined;
  // One request in flight at a time, shared by every call that waits for a token.
  let pending: Promise<string | CollectionOutcome> | undefined;

  const fetchToken = async (signal: AbortSignal): Promise<string | CollectionOutcome> => {
    const { url, headers, body } = request();
    const response = await context.http.post(url, headers, body, signal);
    if (credentialRefusals.includes(response.status)) return failed(`${platform} refused the app credentials (status ${response.status})`);
    const refused = refusal(response, { notFoundStatuses: [] }, context.now());
    if (refused) return refused;
    const answer = tokenBody.parse(response.body);
    if (!answer) return unparsable;
    current = { token: answer.access_token, expiresAt: context.now() + answer.expires_in * 1000 - tokenMarginMs };
    return answer.access_token;
  };

  const token = (signal: AbortSignal): Promise<string | CollectionOutcome> => {
    if (current && context.now() < current.expiresAt) return Promise.resolve(current.token);
    pending ??= fetchToken(signal).finally(() => {
      pending = undefined;
    });
    return pending;
  };

  return {
    async authorized(call, signal) {
      const first = await token(signal);
      if (typeof first !== 'string') return first;
      const response = await call(first);
      if (response.status !== 401) return response;
      // Revoked or expired early: forget it (unless another call already replaced it) and try once more.
      if (current?.token === first) current = undefined;
      const second = await token(signal);
      return typeof second === 'string' ? call(second) : second;
    },
  };
}
