// Lemmy's HTTP API as the emulator speaks it, for any server under /lemmy/<host>
// (docs/platforms.md#federated-platforms): 0.19's v3 shapes (counts in the view's `counts`) and
// errors (HTTP 400 `couldnt_find_*`), and 1.0's v4 shapes (counts on the entity, HTTP 404 `not_found`).
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedCounts, EmulatedResource, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import type { ResourceType } from '../../model.js';

type Version = 'v3' | 'v4';

/** Lemmy's per-address limit answers 429 with its error and no reset header. */
const rateLimitReply = json(429, { error: 'rate_limit_error' });
const malformedReply = cutOffJson('{"community_view":{"');

const notFoundReply = (version: Version, missing: string) =>
  version === 'v3' ? json(400, { error: `couldnt_find_${missing}` }) : json(404, { error: 'not_found', message: 'Not Found' });

function answer(resource: EmulatedResource, version: Version, missing: string, found: (counts: EmulatedCounts) => unknown): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return notFoundReply(version, missing);
    case 'ratelimit':
      return rateLimitReply;
    case 'malformed':
      return malformedReply;
    case 'normal':
      return json(200, found(resource.counts));
  }
}

/** An entity with its counts where the version keeps them: beside it (v3) or on it (v4). */
function view<Counts extends object>(version: Version, key: string, entity: object, counts: Counts) {
  return version === 'v3' ? { [key]: entity, counts } : { [key]: { ...entity, ...counts } };
}

const published = '2023-06-12T08:41:07.165Z';

const methods: Record<string, { type: ResourceType; parameter: string; missing: string }> = {
  user: { type: 'account', parameter: 'username', missing: 'person' },
  person: { type: 'account', parameter: 'username', missing: 'person' },
  community: { type: 'community', parameter: 'name', missing: 'community' },
  post: { type: 'post', parameter: 'id', missing: 'post' },
};

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const { host } = request;
    const call = /^\/api\/(v3|v4)\/(user|person|community|post)$/.exec(request.path);
    if (host === undefined || !call) return undefined;
    const version = call[1] as Version;
    // v3 names users `user`, v4 `person`.
    if ((version === 'v3' && call[2] === 'person') || (version === 'v4' && call[2] === 'user')) return undefined;
    const method = methods[call[2]!]!;
    const value = request.query.get(method.parameter);
    if (value === null) return json(400, { error: 'no_id_given' });
    const identifier = method.type === 'post' ? `${host}:${value}` : `${value}@${host}`;
    const resource = context.lookup(method.type, identifier);
    const apId = `https://${host}/${method.type === 'account' ? 'u' : method.type === 'community' ? 'c' : 'post'}/${value}`;
    return answer(resource, version, method.missing, (counts) => {
      switch (method.type) {
        case 'account':
          return {
            person_view: {
              ...view(
                version,
                'person',
                { id: counts.following + 1, name: value, published, ap_id: apId, local: true, deleted: false, bot_account: false },
                { post_count: counts.posts, comment_count: counts.replies },
              ),
              is_admin: false,
            },
            moderates: [],
          };
        case 'community':
          return {
            community_view: {
              ...view(
                version,
                'community',
                {
                  id: counts.following + 1,
                  name: value,
                  title: value,
                  published,
                  ap_id: apId,
                  local: true,
                  removed: false,
                  deleted: false,
                  nsfw: false,
                },
                { subscribers: counts.followers, posts: counts.posts, comments: counts.replies, users_active_month: counts.following },
              ),
              blocked: false,
            },
            moderators: [],
            discussion_languages: [],
          };
        default:
          return {
            post_view: view(
              version,
              'post',
              {
                id: Number(value),
                name: 'emulated post',
                published,
                ap_id: apId,
                local: true,
                removed: false,
                deleted: false,
                locked: false,
              },
              { comments: counts.replies, score: counts.likes - counts.reposts, upvotes: counts.likes, downvotes: counts.reposts },
            ),
            cross_posts: [],
            moderators: [],
          };
      }
    });
  },
};
