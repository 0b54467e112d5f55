// TikTok's public profile page GET /@<name> as the emulator serves it (docs/platforms.md#the-emulator):
// a missing name is a 200 page with statusCode 10221; throttling is a bare 429.
import type { EmulatedCounts, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import { abbreviateCount } from '../counts.js';

const profilePath = /^\/@([^/]+)$/;

const html = (body: string): EmulatorReply => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body });

/** JSON inside a script element, with "<" escaped as TikTok does so no "</script>" can occur. */
const embedded = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');

function page(
  title: string,
  header: string,
  userDetail: unknown,
  scriptBody = embedded({
    __DEFAULT_SCOPE__: { 'webapp.app-context': { language: 'en', region: 'US' }, 'webapp.user-detail': userDetail },
  }),
): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charSet="UTF-8"/>',
    `<title>${title}</title></head><body><div id="app"><main>${header}</main></div>`,
    `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${scriptBody}</script>`,
    '</body></html>',
  ].join('');
}

/** Counts sit exact in the __UNIVERSAL_DATA_FOR_REHYDRATION__ JSON and rounded ("1.2M") in the visible header, as on tiktok.com. */
function profilePage(name: string, counts: EmulatedCounts): string {
  const strong = (e2e: string, value: number) => `<strong data-e2e="${e2e}">${abbreviateCount(value)}</strong>`;
  const header = `<h1 data-e2e="user-title">${name}</h1><h3>${strong('following-count', counts.following)} Following ${strong('followers-count', counts.followers)} Followers ${strong('likes-count', counts.likes)} Likes</h3>`;
  return page(`${name} | TikTok`, header, {
    userInfo: {
      user: {
        id: String(6_800_000_000_000_000_000n + BigInt(counts.following)),
        uniqueId: name,
        nickname: name,
        verified: counts.verified,
        privateAccount: false,
      },
      stats: {
        followerCount: counts.followers,
        followingCount: counts.following,
        heart: counts.likes,
        heartCount: counts.likes,
        videoCount: counts.posts,
        diggCount: 0,
        friendCount: 0,
      },
      itemList: [],
    },
    shareMeta: { title: `${name} on TikTok`, desc: `@${name} ${abbreviateCount(counts.followers)} Followers` },
    statusCode: 0,
    statusMsg: '',
  });
}

const missingPage = () =>
  page('This account cannot be found | TikTok', "<p>Couldn't find this account</p>", {
    userInfo: {},
    shareMeta: {},
    statusCode: 10221,
    statusMsg: '',
  });

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const match = profilePath.exec(request.path);
    if (!match) return undefined;
    const name = decodeURIComponent(match[1]!);
    const resource = context.lookup('account', name);
    switch (resource.mode) {
      case 'missing':
        return html(missingPage());
      case 'ratelimit':
        return { status: 429, headers: { 'content-type': 'text/html', 'retry-after': '60' }, body: 'Too Many Requests' };
      case 'malformed':
        return html(page(`${name} | TikTok`, '', null, '{"__DEFAULT_SCOPE__":{"webapp.user-detail":{"userInfo":'));
      case 'normal':
        return html(profilePage(name, resource.counts));
    }
  },
};
