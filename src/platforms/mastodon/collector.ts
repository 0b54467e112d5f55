// Mastodon's REST API on each account's home server (docs/platforms.md#federated-platforms), read
// without a token: GET /api/v1/accounts/lookup?acct=<user> and GET /api/v1/statuses/<id>.
// https://docs.joinmastodon.org/methods/accounts/#lookup, .../methods/statuses/#get
import Type from 'typebox';
import { failed, type CollectionOutcome } from '../../model.js';
import type { UpstreamResponse } from '../http.js';
import { hostOf, postIdOf, userOf } from '../federated.js';
import { reportedCounts } from '../reported.js';
import { oneAtATime, refusal, type StatusRules } from '../lookups.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, unparsable } from '../upstream.js';

// Servers speaking Mastodon's API leave out what they do not count (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));
const accountBody = jsonBody(Type.Object({ followers_count: count, following_count: count, statuses_count: count }));
const statusBody = jsonBody(Type.Object({ favourites_count: count, reblogs_count: count, replies_count: count }));
const errorBody = jsonBody(Type.Object({ error: Type.String({ maxLength: 200 }) }));

/** 404 `{"error": "Record not found"}`; 429 with X-RateLimit-Reset, an ISO 8601 time. */
const statusRules: StatusRules = { notFoundStatuses: [404], resetHeader: 'x-ratelimit-reset' };

/**
 * A server in authorized-fetch or limited mode answers 401 to a read without a token, and some
 * answer 403: the resource may well exist, so this is a failure with the server's own reason,
 * never not_found (docs/platforms.md#not-found-means-the-platform-said-so).
 */
function closedServer(response: UpstreamResponse, host: string): CollectionOutcome | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const reason = errorBody.parse(response.body)?.error;
  return failed(`${host} answers ${response.status} to reads without an account${reason ? `: ${reason}` : ''}`);
}

export function createMastodonCollector(context: CollectorContext): Collector {
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };

  const read = async (host: string, path: string, signal: AbortSignal, parse: (body: string) => CollectionOutcome) => {
    const response = await context.http.get(`${context.hostUrl(host)}${path}`, headers, signal);
    return closedServer(response, host) ?? refusal(response, statusRules, context.now()) ?? parse(response.body);
  };

  return oneAtATime(async (ref, signal) => {
    const host = hostOf(ref.identifier);
    if (ref.type === 'post')
      return read(host, `/api/v1/statuses/${encodeURIComponent(postIdOf(ref.identifier))}`, signal, (body) => {
        const status = statusBody.parse(body);
        if (!status) return unparsable;
        return reportedCounts({
          // docs/api.md#a-14: Mastodon counts no views.
          views: [null, 'views'],
          likes: [status.favourites_count, 'favourites'],
          reposts: [status.reblogs_count, 'boosts'],
          replies: [status.replies_count, 'replies'],
        });
      });
    // A bare username asks the home server for its own account, without WebFinger.
    return read(host, `/api/v1/accounts/lookup?acct=${encodeURIComponent(userOf(ref.identifier))}`, signal, (body) => {
      const account = accountBody.parse(body);
      if (!account) return unparsable;
      return reportedCounts({
        followers: [account.followers_count, 'followers'],
        following: [account.following_count, 'following'],
        posts: [account.statuses_count, 'posts'],
      });
    });
  });
}
