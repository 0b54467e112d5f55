// Facebook Graph API: GET /{page}?fields=fan_count, batched as GET /?ids=a,b&fields=fan_count.
// https://developers.facebook.com/docs/graph-api/reference/page,
// .../docs/graph-api/advanced#multiple-ids ("ids" takes up to 50 ids or aliases).
import Type from 'typebox';
import { failed, found, type CollectionOutcome, type ResourceRef } from '../../model.js';
import type { Collector, CollectorContext } from '../types.js';
import { jsonBody, settle, unparsable } from '../upstream.js';
import { facebookGraphVersion, graphFailure, graphOutcome, isUnknownObject, type GraphError } from '../metaGraph/api.js';

const maxIdsPerRequest = 50;

const page = Type.Object({ fan_count: Type.Integer({ minimum: 0 }) });
const pageBody = jsonBody(page);
const pagesBody = jsonBody(Type.Record(Type.String(), page));

/** 803 "Some of the aliases you requested do not exist", or 100/33 for an unknown numeric id. */
const isMissingPage = (error: GraphError) => error.code === 803 || isUnknownObject(error);

/**
 * docs/api.md#a-16: facebook followers carry the semantic `likes`, so the
 * value is the page's like count `fan_count`. Pages follow no one and the Graph gives no
 * post total, so those are reported as not available (docs/api.md#a-14).
 */
function pageFound(likes: number): CollectionOutcome {
  return found({
    metrics: {
      followers: { value: likes, semantic: 'likes' },
      following: { value: null, semantic: 'following' },
      posts: { value: null, semantic: 'posts' },
    },
  });
}

export function createFacebookCollector(context: CollectorContext): Collector {
  const token = encodeURIComponent(context.credentials.FACEBOOK_ACCESS_TOKEN ?? '');
  const headers = { accept: 'application/json', 'user-agent': 'datapoints' };

  const collectOne = (ref: ResourceRef, signal: AbortSignal) =>
    settle(async () => {
      const url = `${context.baseUrl}/${facebookGraphVersion}/${encodeURIComponent(ref.identifier)}?fields=fan_count&access_token=${token}`;
      const response = await context.http.get(url, headers, signal);
      return graphOutcome(response, context.now(), isMissingPage, (body) => {
        const parsed = pageBody.parse(body);
        return parsed ? pageFound(parsed.fan_count) : unparsable;
      });
    });

  // One unknown alias fails the whole multi-id request with 803, so that answer falls back
  // to one request per page; any other answer (throttled, failed) applies to every page.
  const collectBatch = async (refs: readonly ResourceRef[], signal: AbortSignal): Promise<CollectionOutcome[]> => {
    const ids = refs.map((ref) => encodeURIComponent(ref.identifier)).join(',');
    const url = `${context.baseUrl}/${facebookGraphVersion}/?ids=${ids}&fields=fan_count&access_token=${token}`;
    const response = await context.http.get(url, headers, signal);
    if (response.status !== 200) {
      const failure = graphFailure(response, context.now(), isMissingPage);
      return failure.kind === 'notFound' ? Promise.all(refs.map((ref) => collectOne(ref, signal))) : refs.map(() => failure);
    }
    const pages = pagesBody.parse(response.body);
    return refs.map((ref) => {
      const entry = pages?.[ref.identifier];
      if (entry) return pageFound(entry.fan_count);
      return pages ? failed(`page '${ref.identifier}' missing from the multi-id answer`) : unparsable;
    });
  };

  /** A thrown batch request (network, abort) fails every page of it, worded as `settle` words it. */
  const settleBatch = (refs: readonly ResourceRef[], signal: AbortSignal) =>
    collectBatch(refs, signal).catch(async (error: unknown) => {
      const outcome = await settle(() => Promise.reject(error));
      return refs.map(() => outcome);
    });

  return {
    maxBatch: maxIdsPerRequest,
    collect: (refs, signal) => (refs.length === 1 ? Promise.all([collectOne(refs[0]!, signal)]) : settleBatch(refs, signal)),
  };
}
