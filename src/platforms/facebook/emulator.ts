// The Facebook Graph API as the emulator speaks it: GET /v{n}/{page}?fields=... and the
// multi-id form GET /v{n}/?ids=a,b&fields=..., with the Graph's 803 answer for unknown
// aliases, its code-4 throttling answer and the code-104 answer to a missing token.
import type { EmulatedResource, PlatformEmulator } from '../emulatorContract.js';
import { graphErrorReply, graphJson, graphMalformedReply, graphMissingTokenReply, graphRateLimitReply } from '../metaGraph/replies.js';

const pagePath = /^\/v\d+\.\d+\/([^/]*)$/;

function pageObject(alias: string, resource: EmulatedResource, fields: readonly string[]): Record<string, unknown> {
  const { counts } = resource;
  const page: Record<string, unknown> = {
    id: String(100_000_000_000_000 + counts.following * 7919),
    name: alias,
    username: alias,
    fan_count: counts.likes,
    followers_count: counts.followers,
  };
  return Object.fromEntries(Object.entries(page).filter(([field]) => field === 'id' || fields.includes(field)));
}

const missingAliasesReply = (aliases: readonly string[]) =>
  graphErrorReply(404, {
    message: `(#803) Some of the aliases you requested do not exist: ${aliases.join(',')}`,
    type: 'OAuthException',
    code: 803,
  });

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const match = pagePath.exec(request.path);
    if (!match) return undefined;
    if (!request.query.get('access_token')) return graphMissingTokenReply;
    const ids = request.query.get('ids');
    const aliases = match[1] ? [decodeURIComponent(match[1])] : (ids ?? '').split(',').filter((alias) => alias !== '');
    if (aliases.length === 0) return graphErrorReply(400, { message: '(#100) Missing page id', type: 'OAuthException', code: 100 });
    const fields = (request.query.get('fields') ?? '').split(',');
    const resources = aliases.map((alias) => [alias, context.lookup('account', alias)] as const);

    const throttled = resources.find(([, resource]) => resource.mode === 'ratelimit');
    if (throttled) return graphRateLimitReply(String(pageObject(throttled[0], throttled[1], []).id), 'pages');
    if (resources.some(([, resource]) => resource.mode === 'malformed')) return graphMalformedReply;
    const missing = resources.filter(([, resource]) => resource.mode === 'missing').map(([alias]) => alias);
    if (missing.length > 0) return missingAliasesReply(missing);

    const pages = resources.map(([alias, resource]) => [alias, pageObject(alias, resource, fields)] as const);
    return match[1] ? graphJson(200, pages[0]![1]) : graphJson(200, Object.fromEntries(pages));
  },
};
