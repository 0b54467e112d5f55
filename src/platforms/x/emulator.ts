// X API v2 as the emulator speaks it: /2/users/by and /2/tweets with api.x.com's parameters,
// bodies and problems, its 401 without a bearer token and its 429 with x-rate-limit-* headers.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedResource, EmulatorContext, EmulatorReply, EmulatorRequest, PlatformEmulator } from '../emulatorContract.js';
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

/** A lookup by a list of values, as users/by and tweets both are. */
interface Lookup {
  /** The query parameter that lists the values, and the one that names the fields asked for. */
  parameter: 'usernames' | 'ids';
  fieldsParameter: 'user.fields' | 'tweet.fields';
  /** What X calls the resource a value names, in its not-found errors. */
  resource: 'user' | 'tweet';
  find(value: string): EmulatedResource;
  /** A found resource's entry of `data`. */
  entry(value: string, counts: EmulatedResource['counts'], fields: ReadonlySet<string>): object;
}

/** The whole answer: refused when the list is empty or too long, or when any resource in it is rate limited or malformed. */
function lookupReply(request: EmulatorRequest, now: number, lookup: Lookup): EmulatorReply {
  const { parameter } = lookup;
  const values = (request.query.get(parameter) ?? '').split(',').filter((value) => value !== '');
  if (values.length === 0) return invalidRequest(parameter, `The \`${parameter}\` query parameter can not be empty`);
  if (values.length > usersByAndTweetsLimit)
    return invalidRequest(
      parameter,
      `The number of values in the \`${parameter}\` query parameter list [${values.length}] is not between 1 and 100`,
    );
  const fields = fieldsOf(request, lookup.fieldsParameter);
  const looked = values.map((value) => ({ value, resource: lookup.find(value) }));
  if (looked.some(({ resource }) => resource.mode === 'ratelimit')) return rateLimitReply(now);
  if (looked.some(({ resource }) => resource.mode === 'malformed')) return malformedReply;
  return json(
    200,
    lookupBody(
      looked
        .filter(({ resource }) => resource.mode === 'normal')
        .map(({ value, resource }) => lookup.entry(value, resource.counts, fields)),
      looked.filter(({ resource }) => resource.mode === 'missing').map(({ value }) => notFoundError(lookup.resource, parameter, value)),
    ),
  );
}

/** X omits `data` or `errors` when it has nothing to put there. */
const lookupBody = (data: readonly object[], errors: readonly object[]) => ({
  ...(data.length > 0 ? { data } : {}),
  ...(errors.length > 0 ? { errors } : {}),
});

const usersBy = (request: EmulatorRequest, context: EmulatorContext) =>
  lookupReply(request, context.now, {
    parameter: 'usernames',
    fieldsParameter: 'user.fields',
    resource: 'user',
    find: (username) => context.lookup('account', username),
    entry: (username, counts, fields) => ({
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
    }),
  });

const tweets = (request: EmulatorRequest, context: EmulatorContext) =>
  lookupReply(request, context.now, {
    parameter: 'ids',
    fieldsParameter: 'tweet.fields',
    resource: 'tweet',
    find: (id) => context.lookup('post', `${emulatedAuthor}:${id}`),
    entry: (id, counts, fields) => ({
      id,
      text: 'emulated post',
      edit_history_tweet_ids: [id],
      ...(fields.has('author_id') ? { author_id: emulatedAuthorId } : {}),
      ...(fields.has('public_metrics')
        ? {
            public_metrics: {
              retweet_count: counts.reposts,
              reply_count: counts.replies,
              like_count: counts.likes,
              quote_count: Math.floor(counts.reposts / 7),
              bookmark_count: Math.floor(counts.likes / 20),
              ...(snowflakeTime(id) >= viewCountingSince ? { impression_count: counts.views } : {}),
            },
          }
        : {}),
    }),
  });

export const emulator: PlatformEmulator = {
  handle(request, context) {
    if (request.path !== '/2/users/by' && request.path !== '/2/tweets') return undefined;
    if (!/^Bearer \S+$/.test(request.headers.authorization ?? '')) return problem(401, 'Unauthorized', 'Unauthorized');
    return request.path === '/2/users/by' ? usersBy(request, context) : tweets(request, context);
  },
};
