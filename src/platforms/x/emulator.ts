// X API v2 as the emulator speaks it: /2/users/by and /2/tweets with api.x.com's parameters,
// bodies and problems, its 401 without a bearer token and its 429 with x-rate-limit-* headers.
import { cutOffJson, jsonReply as json } from '../../emulator/replies.js';
import type { EmulatedResource, EmulatorContext, EmulatorReply, EmulatorRequest, PlatformEmulator } from '../../emulator/types.js';
import { snowflakeTime, viewCountingSince } from './identifiers.js';

/** X's own limit, stated here rather than taken from the collector, so a wrong one there shows: users/by and tweets take 1-100 values. */
const usersByAndTweetsLimit = 100;

/**
 * GET /2/tweets names a post by id only, so the emulator cannot know which handle the caller has
 * in mind (a limitation README.md states): every emulated username is this one account id, which
 * every emulated tweet names as its author_id, so the collector's author check passes for any
 * handle. A tweet's counts and faults are looked up as `<emulatedAuthor>:<id>`; `missing*`,
 * `flaky*` and `slow*` handles still apply to posts through the users/by call. Post ids are real
 * snowflakes: those made before view counting carry no impression_count.
 */
export const emulatedAuthorId = '1577444925917097984';
export const emulatedAuthor = 'emulated_author';

const problem = (status: number, title: string, detail: string, type = 'about:blank') => json(status, { title, detail, type, status });

/** users/by allows an app 300 requests per 15 minutes. */
const rateLimitReply = (now: number) =>
  json(
    429,
    { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    {
      'x-rate-limit-limit': '300',
      'x-rate-limit-remaining': '0',
      'x-rate-limit-reset': String(Math.ceil(now / 1000) + 60),
    },
  );

const malformedReply = cutOffJson('{"data":[{"id":"');

const invalidRequest = (parameter: string, message: string) =>
  json(400, {
    errors: [{ parameters: { [parameter]: [] }, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.twitter.com/2/problems/invalid-request',
  });

const notFoundError = (resource: 'user' | 'tweet', parameter: string, value: string) => ({
  value,
  detail: `Could not find ${resource} with ${parameter}: [${value}].`,
  title: 'Not Found Error',
  resource_type: resource,
  parameter,
  resource_id: value,
  type: 'https://api.twitter.com/2/problems/resource-not-found',
});

const fieldsOf = (request: EmulatorRequest, name: string) => new Set((request.query.get(name) ?? '').split(','));

/** The whole answer, refused when any resource in it is rate limited or malformed. */
function answer(looked: ReadonlyArray<{ resource: EmulatedResource }>, now: number, render: () => EmulatorReply): EmulatorReply {
  if (looked.some(({ resource }) => resource.mode === 'ratelimit')) return rateLimitReply(now);
  if (looked.some(({ resource }) => resource.mode === 'malformed')) return malformedReply;
  return render();
}

/** X omits `data` or `errors` when it has nothing to put there. */
const lookupBody = (data: readonly object[], errors: readonly object[]) => ({
  ...(data.length > 0 ? { data } : {}),
  ...(errors.length > 0 ? { errors } : {}),
});

function usersBy(request: EmulatorRequest, context: EmulatorContext): EmulatorReply {
  const usernames = (request.query.get('usernames') ?? '').split(',').filter((name) => name !== '');
  if (usernames.length === 0) return invalidRequest('usernames', 'The `usernames` query parameter can not be empty');
  if (usernames.length > usersByAndTweetsLimit)
    return invalidRequest(
      'usernames',
      `The number of values in the \`usernames\` query parameter list [${usernames.length}] is not between 1 and 100`,
    );
  const fields = fieldsOf(request, 'user.fields');
  const looked = usernames.map((username) => ({ username, resource: context.lookup('account', username) }));
  return answer(looked, context.now, () =>
    json(
      200,
      lookupBody(
        looked
          .filter(({ resource }) => resource.mode === 'normal')
          .map(({ username, resource: { counts } }) => ({
            id: emulatedAuthorId,
            name: username,
            username,
            ...(fields.has('verified') ? { verified: counts.verified } : {}),
            ...(fields.has('public_metrics')
              ? {
                  public_metrics: {
                    followers_count: counts.followers,
                    following_count: counts.following,
                    tweet_count: counts.posts,
                    listed_count: Math.floor(counts.followers / 200),
                    like_count: counts.likes,
                    media_count: Math.floor(counts.posts / 4),
                  },
                }
              : {}),
          })),
        looked.filter(({ resource }) => resource.mode === 'missing').map(({ username }) => notFoundError('user', 'usernames', username)),
      ),
    ),
  );
}

function tweets(request: EmulatorRequest, context: EmulatorContext): EmulatorReply {
  const ids = (request.query.get('ids') ?? '').split(',').filter((id) => id !== '');
  if (ids.length === 0) return invalidRequest('ids', 'The `ids` query parameter can not be empty');
  if (ids.length > usersByAndTweetsLimit)
    return invalidRequest('ids', `The number of values in the \`ids\` query parameter list [${ids.length}] is not between 1 and 100`);
  const fields = fieldsOf(request, 'tweet.fields');
  const looked = ids.map((id) => ({ id, resource: context.lookup('post', `${emulatedAuthor}:${id}`) }));
  return answer(looked, context.now, () =>
    json(
      200,
      lookupBody(
        looked
          .filter(({ resource }) => resource.mode === 'normal')
          .map(({ id, resource: { counts } }) => ({
            id,
            text: 'emulated post',
            edit_history_tweet_ids: [id],
            ...(fields.has('author_id') ? { author_id: emulatedAuthorId } : {}),
            ...(fields.has('public_metrics')
              ? {
                  public_metrics: {
                    retweet_count: counts.reposts,
                    reply_count: Math.floor(counts.reposts / 3),
                    like_count: counts.likes,
                    quote_count: Math.floor(counts.reposts / 7),
                    bookmark_count: Math.floor(counts.likes / 20),
                    ...(snowflakeTime(id) >= viewCountingSince ? { impression_count: counts.views } : {}),
                  },
                }
              : {}),
          })),
        looked.filter(({ resource }) => resource.mode === 'missing').map(({ id }) => notFoundError('tweet', 'ids', id)),
      ),
    ),
  );
}

export const emulator: PlatformEmulator = {
  handle(request, context) {
    if (request.path !== '/2/users/by' && request.path !== '/2/tweets') return undefined;
    if (!/^Bearer \S+$/.test(request.headers.authorization ?? '')) return problem(401, 'Unauthorized', 'Unauthorized');
    return request.path === '/2/users/by' ? usersBy(request, context) : tweets(request, context);
  },
};
