// LinkedIn offers no public count API; the logged-out public pages carry the counts.
// Companies (https://www.linkedin.com/company/<name>/): the meta description,
// "<Name> | 12,345 followers on LinkedIn. ...". People (https://www.linkedin.com/in/<name>/):
// the JSON-LD Person's interactionStatistic (FollowAction) userInteractionCount.
import Type from 'typebox';
import { failed, found, notFound, rateLimited, type CollectionOutcome, type ResourceRef } from '../../model.js';
import { expandCount } from '../counts.js';
import { header } from '../http.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, retryAtOf, scriptText, settle, unexpectedStatus, unparsable } from '../upstream.js';

const personGraph = jsonBody(
  Type.Object({
    '@graph': Type.Array(
      Type.Object({
        '@type': Type.String(),
        interactionStatistic: Type.Optional(Type.Object({ userInteractionCount: Type.Integer({ minimum: 0 }) })),
      }),
    ),
  }),
);

const metaDescription = /<meta\s+name="description"\s+content="([^"]*)"/;
/** "12,345 followers", "1.2K followers": the count LinkedIn prints before "followers". */
const followersText = /(\d[\d,.]*\s*[KMB]?)\s+followers\b/i;

const pagePath = (ref: ResourceRef) =>
  `${ref.type === 'organization' ? 'company' : 'in'}/${encodeURIComponent(ref.identifier)}/`;

function companyFollowers(html: string): number | undefined {
  const description = metaDescription.exec(html)?.[1];
  const text = description === undefined ? undefined : followersText.exec(description)?.[1];
  return text === undefined ? undefined : expandCount(text);
}

function personFollowers(html: string): number | undefined {
  const graph = personGraph.parse(scriptText(html, 'type="application/ld+json"') ?? '');
  return graph?.['@graph'].find((node) => node['@type'] === 'Person')?.interactionStatistic?.userInteractionCount;
}

// LinkedIn reports neither following nor post totals on its public pages (decisions 5).
const followersFound = (followers: number): CollectionOutcome =>
  found({
    metrics: {
      followers: { value: followers, semantic: 'followers' },
      following: { value: null, semantic: 'following' },
      posts: { value: null, semantic: 'posts' },
    },
  });

export function createLinkedinCollector(context: CollectorContext): Collector {
  const headers = {
    accept: 'text/html,application/xhtml+xml',
    'accept-language': 'en-US,en;q=0.9',
    'user-agent': 'Mozilla/5.0 (compatible; datapoints)',
  };

  const collectOne = (ref: ResourceRef, signal: AbortSignal) =>
    settle(async () => {
      const response = await context.http.get(`${context.baseUrl}/${pagePath(ref)}`, headers, signal);
      // 999 is LinkedIn's bot-block answer: a refusal to come back from later, never not_found.
      if (response.status === 999 || response.status === 429) return rateLimited(retryAtOf(response, context.now()));
      if (response.status === 404) return notFound;
      if (response.status >= 300 && response.status < 400) return failed(`linkedin redirected to ${header(response, 'location') ?? 'an unknown page'} (login wall)`);
      if (response.status !== 200) return unexpectedStatus(response);
      const followers = ref.type === 'organization' ? companyFollowers(response.body) : personFollowers(response.body);
      return followers === undefined ? unparsable : followersFound(followers);
    });

  // One page per company or person: there is nothing to batch.
  return {
    maxBatch: 1,
    collect: (refs, signal) => Promise.all(refs.map((ref) => collectOne(ref, signal))),
  };
}
