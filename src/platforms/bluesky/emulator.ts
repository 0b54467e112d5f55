// Bluesky's public AppView as the emulator speaks it (docs/platforms.md#the-emulator): the same XRPC
// paths, repeated query parameters, bodies and errors as public.api.bsky.app, 429 included.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedResource, EmulatorContext, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';

/** The lexicons' own maxLength of `actors` and `uris`, stated here so a wrong limit in the collector shows. */
const lexiconMaxLength = 25;

const invalidRequest = (message: string) => json(400, { error: 'InvalidRequest', message });

/** The AppView's per-IP window, 3000 requests per 5 minutes, told in ratelimit-* headers. */
const rateLimitReply = (now: number) =>
  json(
    429,
    { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    {
      'ratelimit-limit': '3000',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(Math.ceil(now / 1000) + 60),
      'ratelimit-policy': '3000;w=300',
    },
  );

const malformedReply = cutOffJson('{"profiles":[{"did":"');

/** A real DID method that names the handle, so a getPosts at-URI names its author's handle back, which the post lookup needs. */
const didOf = (handle: string) => `did:web:${handle}`;
const postUriPattern = /^at:\/\/did:web:([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/;

/** A whole answer is refused when any resource in it is rate limited or malformed. */
function refusal(resources: readonly EmulatedResource[], now: number): EmulatorReply | undefined {
  if (resources.some((resource) => resource.mode === 'ratelimit')) return rateLimitReply(now);
  if (resources.some((resource) => resource.mode === 'malformed')) return malformedReply;
  return undefined;
}

function profileView(handle: string, resource: EmulatedResource) {
  const { counts } = resource;
  return {
    did: didOf(handle),
    handle,
    displayName: handle.split('.')[0],
    avatar: `https://cdn.bsky.app/img/avatar/plain/${didOf(handle)}/bafkreia@jpeg`,
    associated: { lists: 0, feedgens: 0, starterPacks: 0, labeler: false },
    labels: [],
    createdAt: '2023-04-12T18:30:01.512Z',
    description: '',
    indexedAt: '2024-11-20T09:14:52.117Z',
    followersCount: counts.followers,
    followsCount: counts.following,
    postsCount: counts.posts,
  };
}

function getProfiles(actors: readonly string[], context: EmulatorContext): EmulatorReply {
  if (actors.length === 0) return invalidRequest('Error: Params must have the property "actors"');
  if (actors.length > lexiconMaxLength) return invalidRequest(`Error: actors must not have more than ${lexiconMaxLength} elements`);
  const looked = actors.map((actor) => ({ handle: actor.toLowerCase(), resource: context.lookup('account', actor) }));
  const refused = refusal(
    looked.map(({ resource }) => resource),
    context.now,
  );
  if (refused) return refused;
  // Unknown actors are left out of the list, as the AppView does.
  const profiles = looked.filter(({ resource }) => resource.mode === 'normal').map(({ handle, resource }) => profileView(handle, resource));
  return json(200, { profiles });
}

function getPosts(uris: readonly string[], context: EmulatorContext): EmulatorReply {
  if (uris.length === 0) return invalidRequest('Error: Params must have the property "uris"');
  if (uris.length > lexiconMaxLength) return invalidRequest(`Error: uris must not have more than ${lexiconMaxLength} elements`);
  const looked = [];
  for (const [index, uri] of uris.entries()) {
    if (!uri.startsWith('at://')) return invalidRequest(`Error: uris/${index} must be a valid at-uri`);
    const match = postUriPattern.exec(uri);
    // A DID the emulator never handed out names no account: the post is left out.
    if (match) looked.push({ uri, handle: match[1]!, resource: context.lookup('post', `${match[1]}:${match[2]}`) });
  }
  const refused = refusal(
    looked.map(({ resource }) => resource),
    context.now,
  );
  if (refused) return refused;
  const posts = looked
    .filter(({ resource }) => resource.mode === 'normal')
    .map(({ uri, handle, resource }) => ({
      uri,
      cid: 'bafyreigh7yods3ndvc5xqc6bodxovgeh3xh6hvpvqhqflmbqqnwx4bwj4e',
      author: { did: didOf(handle), handle, displayName: handle.split('.')[0], labels: [], createdAt: '2023-04-12T18:30:01.512Z' },
      record: { $type: 'app.bsky.feed.post', createdAt: '2025-06-02T14:03:11.908Z', langs: ['en'], text: 'emulated post' },
      bookmarkCount: 0,
      replyCount: resource.counts.replies,
      repostCount: resource.counts.reposts,
      likeCount: resource.counts.likes,
      quoteCount: Math.floor(resource.counts.reposts / 7),
      indexedAt: '2025-06-02T14:03:12.441Z',
      labels: [],
    }));
  return json(200, { posts });
}

export const emulator: PlatformEmulator = {
  handle(request, context) {
    switch (request.path) {
      case '/xrpc/app.bsky.actor.getProfiles':
        return getProfiles(request.query.getAll('actors'), context);
      case '/xrpc/app.bsky.feed.getPosts':
        return getPosts(request.query.getAll('uris'), context);
      default:
        return undefined;
    }
  },
};
