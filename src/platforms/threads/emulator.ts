// Threads as the emulator speaks it (docs/platforms.md#the-emulator): the API's profile_lookup and
// media insights, and the public post page /@<handle>/post/<code>.
import type { EmulatedResource, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import { graphErrorReply, graphJson, graphMalformedReply, graphMissingTokenReply, graphRateLimitReply } from '../metaGraph/replies.js';

const profileLookupPath = /^\/v\d+\.\d+\/profile_lookup$/;
const postPagePath = /^\/@([^/]+)\/post\/([^/]+)$/;
const insightsPath = /^\/v\d+\.\d+\/(\d+)\/insights$/;

/**
 * Meta answers media insights only for the token owner's posts, and a media id does not
 * name its author; the emulator files every media id under the token owner `me`, so a
 * post fault is switched on `me:<media_id>` (or `*`). The author's own conventions
 * (`missing*`, `flaky*`) apply through the profile lookup the collector makes first.
 */
export const tokenOwnerHandle = 'me';

const doesNotExistReply = (id: string) =>
  graphErrorReply(400, {
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });

const pick = (object: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(object).filter(([field]) => field === 'id' || fields.includes(field)));

/**
 * A Graph API answer: a faulted resource's error (`asked`, the name or id in the request; `id`,
 * the object's own), or `normal()` for a healthy one.
 */
function graphReply(resource: EmulatedResource, ids: { asked: string; id: string }, normal: () => EmulatorReply): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return doesNotExistReply(ids.asked);
    case 'ratelimit':
      return graphRateLimitReply(ids.id, 'threads');
    case 'malformed':
      return graphMalformedReply;
    case 'normal':
      return normal();
  }
}

function profileReply(username: string, resource: EmulatedResource, fields: readonly string[]) {
  const { counts } = resource;
  const id = String(25_000_000_000_000_000 + counts.following * 7919);
  return graphReply(resource, { asked: username, id }, () =>
    graphJson(
      200,
      pick(
        {
          id,
          username,
          name: username,
          is_verified: counts.verified,
          follower_count: counts.followers,
          likes_count: counts.likes,
          quotes_count: counts.reposts,
          replies_count: counts.following,
          reposts_count: counts.reposts,
          views_count: counts.views,
        },
        fields,
      ),
    ),
  );
}

function insightsReply(mediaId: string, resource: EmulatedResource, metrics: readonly string[]) {
  const { counts } = resource;
  const values: Record<string, number> = {
    views: counts.views,
    likes: counts.likes,
    replies: counts.replies,
    reposts: counts.reposts,
    quotes: counts.posts,
  };
  return graphReply(resource, { asked: mediaId, id: mediaId }, () =>
    graphJson(200, {
      data: metrics
        .filter((name) => name in values)
        .map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] }],
          title: name[0]!.toUpperCase() + name.slice(1),
          description: `The number of ${name} on your post.`,
          id: `${mediaId}/insights/${name}/lifetime`,
        })),
    }),
  );
}

const html = (status: number, body: string, headers: Record<string, string> = {}): EmulatorReply => ({
  status,
  headers: { 'content-type': 'text/html; charset="utf-8"', ...headers },
  body,
});

/**
 * The public post page as a logged-out reader gets it: the post nested in the page's JSON
 * data blocks, several levels down, beside unrelated blocks. A post whose name makes it
 * missing gets the 404 page; a throttled reader a 429; `malformed` the login wall without data.
 */
function postPageReply(handle: string, code: string, resource: EmulatedResource): EmulatorReply {
  const { counts } = resource;
  switch (resource.mode) {
    case 'missing':
      return html(404, "<!DOCTYPE html><html><head><title>Threads</title></head><body>Sorry, this page isn't available.</body></html>");
    case 'ratelimit':
      return html(429, '<!DOCTYPE html><html><body>Too many requests</body></html>', { 'retry-after': '120' });
    case 'malformed':
      return html(
        200,
        '<!DOCTYPE html><html><head><title>Log in • Threads</title></head><body><form action="/login"></form></body></html>',
      );
    case 'normal': {
      const post = {
        pk: String(3_000_000_000_000_000_000n + BigInt(counts.following)),
        code,
        user: { username: handle, is_verified: counts.verified },
        caption: { text: 'emulated post' },
        like_count: counts.likes,
        text_post_app_info: { direct_reply_count: counts.replies, repost_count: counts.reposts, quote_count: counts.posts },
      };
      const data = {
        require: [
          [
            'ScheduledServerJS',
            'handle',
            null,
            [{ __bbox: { result: { data: { data: { edges: [{ node: { thread_items: [{ post }] } }] } } } } }],
          ],
        ],
      };
      return html(
        200,
        [
          '<!DOCTYPE html><html><head><title>Threads</title>',
          '<script type="application/json" data-content-len="19" data-sjs>{"require":[["Bootloader"]]}</script>',
          `<script type="application/json" data-sjs>${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`,
          '</head><body></body></html>',
        ].join(''),
      );
    }
  }
}

/**
 * GET /v1.0/profile_lookup?username=&fields= and GET /v1.0/{media-id}/insights?metric=, with the
 * Graph family's error answers: 100/33 for an object that does not exist, code 4 when
 * throttled, 104 without a token.
 */
export const emulator: PlatformEmulator = {
  handle(request, context) {
    const page = postPagePath.exec(request.path);
    if (page) {
      const handle = decodeURIComponent(page[1]!);
      const code = decodeURIComponent(page[2]!);
      return postPageReply(handle, code, context.lookup('post', `${handle}:${code}`));
    }
    const insights = insightsPath.exec(request.path);
    if (!insights && !profileLookupPath.test(request.path)) return undefined;
    if (!request.query.get('access_token')) return graphMissingTokenReply;
    if (insights) {
      const mediaId = insights[1]!;
      const metrics = (request.query.get('metric') ?? '').split(',');
      return insightsReply(mediaId, context.lookup('post', `${tokenOwnerHandle}:${mediaId}`), metrics);
    }
    const username = request.query.get('username') ?? '';
    return profileReply(username, context.lookup('account', username), (request.query.get('fields') ?? '').split(','));
  },
};
