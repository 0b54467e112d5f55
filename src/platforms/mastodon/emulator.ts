// Mastodon's REST API as the emulator speaks it, for any server under /mastodon/<host>
// (docs/platforms.md#federated-platforms): the lookup and status methods with the bodies,
// errors and rate-limit headers of docs.joinmastodon.org.
import { cutOffJson, jsonReply as json } from '../emulatorReplies.js';
import type { EmulatedCounts, EmulatedResource, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';

/** Mastodon's default limit: 300 calls per 5 minutes per address; the reset is an ISO 8601 time. */
const rateLimitReply = (now: number) =>
  json(
    429,
    { error: 'Too many requests' },
    { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(now + 60_000).toISOString() },
  );

const notFoundReply = json(404, { error: 'Record not found' });
const malformedReply = cutOffJson('{"id":"');

/**
 * A status id names no author, so the emulator keeps one status per server and id, under this
 * user: faults and count offsets for an emulated status name it (`status@<host>:<id>`).
 */
export const statusAuthor = 'status';

/** A stable numeric account id, as Mastodon's are: from the counts, which derive from the name. */
const accountId = (counts: EmulatedCounts) => String(100_000 + counts.following * 7919 + counts.reposts);

function answer(resource: EmulatedResource, now: number, found: (counts: EmulatedCounts) => unknown): EmulatorReply {
  switch (resource.mode) {
    case 'missing':
      return notFoundReply;
    case 'ratelimit':
      return rateLimitReply(now);
    case 'malformed':
      return malformedReply;
    case 'normal':
      return json(200, found(resource.counts));
  }
}

const accountView = (username: string, host: string, counts: EmulatedCounts) => ({
  id: accountId(counts),
  username,
  acct: username,
  display_name: username,
  locked: false,
  bot: false,
  created_at: '2022-11-04T00:00:00.000Z',
  note: '<p>emulated account</p>',
  url: `https://${host}/@${username}`,
  followers_count: counts.followers,
  following_count: counts.following,
  statuses_count: counts.posts,
  last_status_at: '2026-11-20',
  emojis: [],
  fields: [],
});

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const { host } = request;
    if (host === undefined) return undefined;
    if (request.path === '/api/v1/accounts/lookup') {
      const acct = request.query.get('acct');
      if (acct === null) return json(400, { error: 'Missing parameter: acct' });
      // A bare username is an account of this server; Mastodon would resolve user@other via WebFinger, the emulator does not.
      if (acct.includes('@')) return notFoundReply;
      return answer(context.lookup('account', `${acct}@${host}`), context.now, (counts) => accountView(acct, host, counts));
    }
    const status = /^\/api\/v1\/statuses\/([^/]+)$/.exec(request.path);
    if (status) {
      const id = decodeURIComponent(status[1]!);
      return answer(context.lookup('post', `${statusAuthor}@${host}:${id}`), context.now, (counts) => ({
        id,
        created_at: '2026-11-20T09:14:52.117Z',
        in_reply_to_id: null,
        in_reply_to_account_id: null,
        sensitive: false,
        spoiler_text: '',
        visibility: 'public',
        language: 'en',
        uri: `https://${host}/users/${statusAuthor}/statuses/${id}`,
        url: `https://${host}/@${statusAuthor}/${id}`,
        replies_count: counts.replies,
        reblogs_count: counts.reposts,
        favourites_count: counts.likes,
        content: '<p>emulated status</p>',
        reblog: null,
        account: accountView(statusAuthor, host, counts),
        media_attachments: [],
        mentions: [],
        tags: [],
        emojis: [],
        card: null,
        poll: null,
      }));
    }
    return undefined;
  },
};
