// Instagram (docs/platforms.md#facebook-instagram-linkedin-tiktok-github-bluesky): Graph API business
// discovery, the operator's own business account asking for another professional account's counts.
import Type from 'typebox';
import { reportedCounts } from '../reported.js';
import type { Collector, CollectorContext } from '../types.js';
import { oneAtATime } from '../lookups.js';
import { jsonBody, unparsable } from '../upstream.js';
import { facebookGraphVersion, graphOutcome, type GraphError } from '../metaGraph/api.js';

// Any count may be left out: Meta's own example answers followers_count and media_count only.
const count = Type.Optional(Type.Integer({ minimum: 0 }));
const discoveryBody = jsonBody(
  Type.Object({ business_discovery: Type.Object({ followers_count: count, follows_count: count, media_count: count }) }),
);

/**
 * 110/2207013 "Cannot find User": the username does not exist, or is a personal account
 * that business discovery cannot see; either way Instagram says there is no such account.
 */
const isUnknownUser = (error: GraphError) => error.code === 110 && error.error_subcode === 2207013;

/**
 * GET /{ig-user-id}?fields=business_discovery.username(<name>){followers_count,follows_count,media_count}
 * (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/business_discovery).
 */
export const discoveryFields = (username: string) => `business_discovery.username(${username}){followers_count,follows_count,media_count}`;

export function createInstagramCollector(context: CollectorContext): Collector {
  const token = encodeURIComponent(context.credentials.INSTAGRAM_ACCESS_TOKEN ?? '');
  const ownAccount = encodeURIComponent(context.credentials.INSTAGRAM_BUSINESS_ACCOUNT_ID ?? '');
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };

  // Business discovery names one username per call; the Graph has no multi-user form of it.
  return oneAtATime(async (ref, signal) => {
    const fields = encodeURIComponent(discoveryFields(ref.identifier));
    const url = `${context.baseUrl}/${facebookGraphVersion}/${ownAccount}?fields=${fields}&access_token=${token}`;
    const response = await context.http.get(url, headers, signal);
    return graphOutcome(response, context.now(), isUnknownUser, (body) => {
      const account = discoveryBody.parse(body)?.business_discovery;
      if (!account) return unparsable;
      return reportedCounts({
        followers: [account.followers_count, 'followers'],
        following: [account.follows_count, 'following'],
        posts: [account.media_count, 'posts'],
      });
    });
  });
}
