// TikTok has no public count API: the public profile page https://www.tiktok.com/@<name>
// embeds its data as JSON in <script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">, where
// __DEFAULT_SCOPE__["webapp.user-detail"] holds a statusCode and userInfo.stats.
import Type from 'typebox';
import { failed, notFound } from '../../model.js';
import { oneAtATime, refusal } from '../lookups.js';
import type { Collector, CollectorContext } from '../types.js';
import { reportedCounts } from '../reported.js';
import { jsonBody, scriptText, unparsable } from '../upstream.js';

export const rehydrationScript = 'id="__UNIVERSAL_DATA_FOR_REHYDRATION__"';

// Any count may be left out (docs/platforms.md#missing-fields).
const count = Type.Optional(Type.Integer({ minimum: 0 }));
const userDetail = jsonBody(
  Type.Object({
    __DEFAULT_SCOPE__: Type.Object({
      'webapp.user-detail': Type.Object({
        statusCode: Type.Integer(),
        // Pages for missing users carry an empty userInfo.
        userInfo: Type.Optional(
          Type.Object({ stats: Type.Optional(Type.Object({ followerCount: count, followingCount: count, videoCount: count })) }),
        ),
      }),
    }),
  }),
);

/** statusCode 10202 and 10221: TikTok's "user not exist" answers (unknown and removed names). */
const missingUserCodes = new Set([10202, 10221]);

export function createTiktokCollector(context: CollectorContext): Collector {
  const headers = {
    accept: 'text/html,application/xhtml+xml',
    'accept-language': 'en-US,en;q=0.9',
    'user-agent': 'Mozilla/5.0 (compatible; datapoints)',
  };

  // One page per profile: there is nothing to batch.
  return oneAtATime(async (ref, signal) => {
    const response = await context.http.get(`${context.baseUrl}/@${encodeURIComponent(ref.identifier)}`, headers, signal);
    // A missing user is answered 200 with a statusCode, so no status means not found.
    const refused = refusal(response, { notFoundStatuses: [] }, context.now());
    if (refused) return refused;
    // A page without the data script (a captcha or verify wall) is a failure, never not_found.
    const detail = userDetail.parse(scriptText(response.body, rehydrationScript) ?? '')?.__DEFAULT_SCOPE__['webapp.user-detail'];
    if (!detail) return unparsable;
    if (missingUserCodes.has(detail.statusCode)) return notFound;
    if (detail.statusCode !== 0) return failed(`tiktok user-detail statusCode ${detail.statusCode}`);
    const stats = detail.userInfo?.stats;
    if (!stats) return unparsable;
    return reportedCounts({
      followers: [stats.followerCount, 'followers'],
      following: [stats.followingCount, 'following'],
      posts: [stats.videoCount, 'videos'],
    });
  });
}
