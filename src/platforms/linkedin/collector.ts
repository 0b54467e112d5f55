// LinkedIn (docs/platforms.md#facebook-instagram-linkedin-tiktok-github-bluesky): no public count API,
// so the logged-out public pages of companies and people are read for their follower counts.
import Type from 'typebox';
import { failed, found, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { oneAtATime, refusal, type StatusRules } from '../lookups.js';
import { expandCount } from '../counts.js';
import { header, type UpstreamResponse } from '../http.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, scriptText, unparsable } from '../upstream.js';

const interactionCounter = Type.Object({ interactionType: Type.String(), userInteractionCount: Type.Integer({ minimum: 0 }) });
const linkedData = jsonBody(
  Type.Object({
    '@graph': Type.Array(
      Type.Object({
        // JSON-LD allows one type or several.
        '@type': Type.Union([Type.String(), Type.Array(Type.String())]),
        interactionStatistic: Type.Optional(Type.Union([interactionCounter, Type.Array(interactionCounter)])),
      }),
    ),
  }),
);

/** Attributes of one `<meta>` tag, double-quoted as LinkedIn writes them, in any order. */
const metaTag = /<meta\b((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/gi;
const quotedAttribute = /([\w:-]+)="([^"]*)"/g;
/**
 * The count right after the " | " that ends the company name: "12,345 followers", "1.2K
 * followers", "1 follower". Anchoring on the separator keeps digits in the name ("3M",
 * "Studio 54", "100 Followers Agency") out of the match; a decimal is only taken with its
 * K/M/B, so a "12.345" grouped the German way is never read as 12.
 */
const followersText = /\|\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s?[KMB]|\d+)\s+followers?\b/;
const namedEntities: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', nbsp: '\u00a0' };

function metaContent(html: string, name: string): string | undefined {
  for (const [, attributes] of html.matchAll(metaTag)) {
    const values = new Map([...attributes!.matchAll(quotedAttribute)].map(([, key, value]) => [key!.toLowerCase(), value!]));
    if (values.get('name') === name) return values.get('content');
  }
  return undefined;
}

/** Attribute text with its character references resolved ("AT&amp;T", "don&#39;t", "&#x7C;"). */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]+));/gi, (entity, decimal?: string, hex?: string, name?: string) => {
    const codePoint = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : undefined;
    if (codePoint !== undefined) return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
    return namedEntities[name!.toLowerCase()] ?? entity;
  });
}

/** https://www.linkedin.com/company/<name>/: the meta description, "<Name> | 12,345 followers on LinkedIn. <tagline>". */
function companyFollowers(html: string): number | undefined {
  const description = metaContent(html, 'description');
  const text = description === undefined ? undefined : followersText.exec(decodeEntities(description))?.[1];
  return text === undefined ? undefined : expandCount(text);
}

/** https://www.linkedin.com/in/<name>/: the JSON-LD Person's interactionStatistic (FollowAction) userInteractionCount. */
function personFollowers(html: string): number | undefined {
  const graph = linkedData.parse(scriptText(html, 'type="application/ld+json"') ?? '')?.['@graph'];
  const person = graph?.find((node) => [node['@type']].flat().includes('Person'));
  const counters = [person?.interactionStatistic ?? []].flat();
  return counters.find((counter) => /schema\.org\/FollowAction$/.test(counter.interactionType))?.userInteractionCount;
}

// LinkedIn reports neither following nor post totals on its public pages (docs/api.md#a-14).
const followersFound = (followers: number): CollectionOutcome =>
  found({
    metrics: {
      followers: { value: followers, semantic: 'followers' },
      following: { value: null, semantic: 'following' },
      posts: { value: null, semantic: 'posts' },
    },
  });

// 999 is LinkedIn's bot-block answer: a refusal to come back from later, never not_found.
const statusRules: StatusRules = {
  notFoundStatuses: [404],
  isRateLimited: (response) => response.status === 999 || response.status === 429,
};

export function createLinkedinCollector(context: CollectorContext): Collector {
  const headers = {
    accept: 'text/html,application/xhtml+xml',
    // The count is read from English text ("followers"); the language is asked, not assumed.
    'accept-language': 'en-US,en;q=0.9',
    'user-agent': 'Mozilla/5.0 (compatible; datapoints)',
  };
  const pageUrl = (ref: ResourceRef) =>
    `${context.baseUrl}/${ref.type === 'organization' ? 'company' : 'in'}/${encodeURIComponent(ref.identifier)}/`;

  /**
   * Where a redirect may be followed: to another public page of the same kind on the same
   * host, as from a numeric company id to its vanity name. Anything else (the authwall, the
   * login page, another host) is an answer to classify, not a hop (http.ts).
   */
  function samePageKind(response: UpstreamResponse, from: string): string | undefined {
    const location = header(response, 'location');
    if (response.status < 300 || response.status >= 400 || location === undefined || !URL.canParse(location, from)) return undefined;
    const target = new URL(location, from).href;
    const kind = from.slice(0, from.lastIndexOf('/', from.length - 2) + 1);
    return target.startsWith(kind) && /^[^/?#]+\/?(?:\?[^#]*)?$/.test(target.slice(kind.length)) ? target : undefined;
  }

  /** The page, after at most one redirect to the same kind of page. */
  async function fetchPage(url: string, signal: AbortSignal): Promise<UpstreamResponse> {
    const response = await context.http.get(url, headers, signal);
    const next = samePageKind(response, url);
    return next === undefined ? response : context.http.get(next, headers, signal);
  }

  function redirected(response: UpstreamResponse): CollectionOutcome {
    const location = header(response, 'location')?.split('?')[0];
    // Logged-out requests LinkedIn will not serve go to /authwall (or a login page) with a 302/303.
    if (location !== undefined && /\/(?:authwall|login|uas\/login)\b/.test(location))
      return failed(`linkedin login wall (redirected to ${location})`);
    return failed(`linkedin redirected to ${location ?? 'no location'}`);
  }

  // One page per company or person: there is nothing to batch.
  return oneAtATime(async (ref, signal) => {
    const response = await fetchPage(pageUrl(ref), signal);
    if (response.status >= 300 && response.status < 400) return redirected(response);
    const refused = refusal(response, statusRules, context.now());
    if (refused) return refused;
    const followers = ref.type === 'organization' ? companyFollowers(response.body) : personFollowers(response.body);
    return followers === undefined ? unparsable : followersFound(followers);
  });
}
