// What each platform's upstream requests may look like, read back into the identifiers they
// carry. A target that fits none of its platform's shapes, or carries an unexpected query
// parameter, is an identifier that escaped its place in the URL (issue 5).
import type { PlatformCode, ResourceType } from '../../src/model.js';
import { handlePart, idPart } from '../../src/platforms/identifiers.js';
import { platforms } from '../../src/platforms/registry.js';
import { isChannelId } from '../../src/platforms/youtube/identifiers.js';

/** One identifier (or part of one) seen in an upstream request: `<slot>=<decoded value>`. */
export type Part = string;

const part = (slot: string, value: string): Part => `${slot}=${value}`;

/** The path segment as the upstream decodes it; a `%2F` would come back as `/` and not match. */
const segment = (raw: string) => decodeURIComponent(raw);

/** Query parameters must be exactly `fixed` plus the named variable ones, each present once. */
function onlyParams(query: URLSearchParams, fixed: Record<string, string>, variable: string[]): boolean {
  const names = [...query.keys()].sort();
  const wanted = [...Object.keys(fixed), ...variable].sort();
  if (names.join('&') !== wanted.join('&')) return false;
  return Object.entries(fixed).every(([name, value]) => query.get(name) === value);
}

/** `a,b,c` lists (ids, usernames): none of the identifiers may hold a comma. */
const list = (query: URLSearchParams, name: string) => query.get(name)!.split(',');

type Reader = (path: string, query: URLSearchParams) => Part[] | undefined;

/** Credentials the emulated collectors are given (src/platforms/collectors.ts). */
const credential = 'emulator';
const discoveryFields = /^business_discovery\.username\((.*)\)\{followers_count,follows_count,media_count\}$/;
const atUri = /^at:\/\/did:[a-z]+:[A-Za-z0-9._:%-]+\/app\.bsky\.feed\.post\/(.+)$/;

const readers: Record<PlatformCode, Reader> = {
  github(path, query) {
    if (query.size > 0) return undefined;
    const user = /^\/users\/([^/]+)$/.exec(path);
    if (user) return [part('user', segment(user[1]!))];
    const repo = /^\/repos\/([^/]+)\/([^/]+)$/.exec(path);
    return repo ? [part('repo', `${segment(repo[1]!)}:${segment(repo[2]!)}`)] : undefined;
  },
  facebook(path, query) {
    const fixed = { fields: 'fan_count', access_token: credential };
    if (path === '/v23.0/') return onlyParams(query, fixed, ['ids']) ? list(query, 'ids').map((id) => part('page', id)) : undefined;
    const page = /^\/v23\.0\/([^/]+)$/.exec(path);
    return page && onlyParams(query, fixed, []) ? [part('page', segment(page[1]!))] : undefined;
  },
  instagram(path, query) {
    if (path !== `/v23.0/${credential}` || !onlyParams(query, { access_token: credential }, ['fields'])) return undefined;
    const username = discoveryFields.exec(query.get('fields')!);
    return username ? [part('account', username[1]!)] : undefined;
  },
  threads(path, query) {
    const page = /^\/@([^/]+)\/post\/([^/]+)$/.exec(path);
    if (page) return query.size === 0 ? [part('page', `${segment(page[1]!)}:${segment(page[2]!)}`)] : undefined;
    if (path === '/v1.0/profile_lookup') {
      return onlyParams(query, { fields: 'follower_count', access_token: credential }, ['username'])
        ? [part('user', query.get('username')!)]
        : undefined;
    }
    const media = /^\/v1\.0\/([^/]+)\/insights$/.exec(path);
    return media && onlyParams(query, { metric: 'likes,reposts', access_token: credential }, []) ? [part('media', segment(media[1]!))] : undefined;
  },
  tiktok(path, query) {
    const user = /^\/@([^/]+)$/.exec(path);
    return user && query.size === 0 ? [part('user', segment(user[1]!))] : undefined;
  },
  linkedin(path, query) {
    const page = /^\/(company|in)\/([^/]+)\/$/.exec(path);
    return page && query.size === 0 ? [part(page[1]!, segment(page[2]!))] : undefined;
  },
  bluesky(path, query) {
    const only = (name: string) => query.size > 0 && [...query.keys()].every((key) => key === name);
    if (path === '/xrpc/app.bsky.actor.getProfiles') return only('actors') ? query.getAll('actors').map((handle) => part('actor', handle)) : undefined;
    if (path !== '/xrpc/app.bsky.feed.getPosts' || !only('uris')) return undefined;
    const keys = query.getAll('uris').map((uri) => atUri.exec(uri)?.[1]);
    return keys.every((key) => key !== undefined) ? keys.map((key) => part('post', key)) : undefined;
  },
  youtube(path, query) {
    if (path === '/videos') return onlyParams(query, { part: 'statistics' }, ['id']) ? list(query, 'id').map((id) => part('video', id)) : undefined;
    if (path !== '/channels') return undefined;
    if (onlyParams(query, { part: 'statistics' }, ['id'])) return list(query, 'id').map((id) => part('channel', id));
    return onlyParams(query, { part: 'statistics' }, ['forHandle']) ? [part('handle', query.get('forHandle')!)] : undefined;
  },
  x(path, query) {
    if (path === '/2/users/by') {
      return onlyParams(query, { 'user.fields': 'public_metrics,verified' }, ['usernames'])
        ? list(query, 'usernames').map((name) => part('user', name))
        : undefined;
    }
    if (path !== '/2/tweets') return undefined;
    return onlyParams(query, { 'tweet.fields': 'author_id,public_metrics' }, ['ids']) ? list(query, 'ids').map((id) => part('tweet', id)) : undefined;
  },
};

/**
 * The identifier parts a recorded request target (`/<platform>/...`, still encoded) carries,
 * or undefined when the target is outside every shape of its platform.
 */
export function readTarget(target: string): { platform: PlatformCode; parts: Part[] } | undefined {
  const url = new URL(target, 'http://upstream.invalid');
  // The target as sent must be the target as parsed: no dot segments, no fragment, nothing rewritten.
  if (url.pathname + url.search !== target) return undefined;
  const platform = /^\/([a-z]+)\//.exec(url.pathname)?.[1] as PlatformCode | undefined;
  if (platform === undefined || !platforms.has(platform)) return undefined;
  const parts = readers[platform](url.pathname.slice(platform.length + 1), url.searchParams);
  return parts ? { platform, parts } : undefined;
}

/** The parts a valid identifier must turn into upstream, from its normalized form. */
export function expectedParts(platform: PlatformCode, type: ResourceType, normalized: string): Part[] {
  const post = (handleSlot: string, idSlot: string) => [part(handleSlot, handlePart(normalized)), part(idSlot, idPart(normalized))];
  switch (`${platform}/${type}`) {
    case 'github/account': return [part('user', normalized)];
    case 'github/post': return [part('repo', normalized)];
    case 'facebook/account': return [part('page', normalized)];
    case 'instagram/account': return [part('account', normalized)];
    case 'threads/account': return [part('user', normalized)];
    case 'threads/post': return /:\d+$/.test(normalized) ? post('user', 'media') : [part('page', normalized)];
    case 'tiktok/account': return [part('user', normalized)];
    case 'linkedin/account': return [part('in', normalized)];
    case 'linkedin/organization': return [part('company', normalized)];
    case 'bluesky/account': return [part('actor', normalized)];
    case 'bluesky/post': return post('actor', 'post');
    case 'youtube/account': return [part(isChannelId(normalized) ? 'channel' : 'handle', normalized)];
    case 'youtube/post': return [part('video', normalized)];
    case 'x/account': return [part('user', normalized)];
    case 'x/post': return post('user', 'tweet');
    default: throw new Error(`no upstream shape for ${platform}/${type}: add it here`);
  }
}
