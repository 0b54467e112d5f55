// What every collector shares (docs/platforms.md#the-platform-core): classifying an
// upstream answer by the platform's own rules, given as data; collecting one resource per
// upstream call; and the one result type of a batched upstream call.
import { notFound, rateLimited, type CollectionOutcome, type ResourceRef } from '../model.js';
import type { UpstreamResponse } from './http.js';
import { handlePart } from './identifiers.js';
import type { Collector } from './types.js';
import { retryAtOf, settle, unexpectedStatus } from './upstream.js';

/** How a platform says "no such thing" and "slow down", beyond a plain 200. */
export interface StatusRules {
  /** Statuses that are the platform's explicit answer that the resource does not exist. */
  notFoundStatuses: readonly number[];
  /** Whether an answer is a rate limit; 429 alone when absent. */
  isRateLimited?: (response: UpstreamResponse) => boolean;
  /** The platform's own reset header (Unix seconds), read after Retry-After. */
  resetHeader?: string;
}

/**
 * The outcome a non-200 answer ends in (rate limited, not found, or failed), or undefined
 * for a 200, whose body the collector reads. Never notFound but by the platform's own rule.
 */
export function refusal(response: UpstreamResponse, rules: StatusRules, now: number): CollectionOutcome | undefined {
  const limited = rules.isRateLimited ? rules.isRateLimited(response) : response.status === 429;
  if (limited) return rateLimited(retryAtOf(response, now, rules.resetHeader));
  if (response.status === 200) return undefined;
  return rules.notFoundStatuses.includes(response.status) ? notFound : unexpectedStatus(response);
}

/** A collector for a platform whose upstream names one resource per call. */
export function oneAtATime(collectOne: (ref: ResourceRef, signal: AbortSignal) => Promise<CollectionOutcome>): Collector {
  return {
    maxBatch: 1,
    collect: (refs, signal) => Promise.all(refs.map((ref) => settle(() => collectOne(ref, signal)))),
  };
}

/**
 * One batched upstream call's answer: per requested key, the item found or the outcome of
 * that key (not found, or the platform's own per-item error); or the one outcome every key
 * of the call shares (throttled, failed, unparsable).
 */
export type BatchAnswer<T> = { byKey: ReadonlyMap<string, T | CollectionOutcome> } | { refused: CollectionOutcome };

const outcomeKinds: ReadonlySet<unknown> = new Set<CollectionOutcome['kind']>(['found', 'notFound', 'rateLimited', 'failed', 'deferred']);

/** Whether a batch entry is an outcome rather than an item (items may have a `kind` of their own, as YouTube's do). */
export const isOutcome = <T extends object>(entry: T | CollectionOutcome): entry is CollectionOutcome =>
  'kind' in entry && outcomeKinds.has(entry.kind);

/** The item of `key` in a batch answer, or the outcome that stands for it. */
export function entryOf<T extends object>(answer: BatchAnswer<T>, key: string, absent: CollectionOutcome): T | CollectionOutcome {
  if ('refused' in answer) return answer.refused;
  return answer.byKey.get(key) ?? absent;
}

/** The steps of a platform whose accounts and `<handle>:<id>` posts are looked up in batches, authors first. */
export interface AuthorsThenPosts<Author extends object, Post extends object> {
  maxBatch: number;
  /** One call for every handle of the batch: the accounts, and the authors of the posts. */
  fetchAuthors(handles: readonly string[], signal: AbortSignal): Promise<BatchAnswer<Author>>;
  /** The key a post is asked for and answered under, once its author is known. */
  postKey(ref: ResourceRef, author: Author): string;
  fetchPosts(keys: readonly string[], signal: AbortSignal): Promise<BatchAnswer<Post>>;
  /** The outcome of a key a well-formed answer leaves out. */
  absent: CollectionOutcome;
  account(author: Author): CollectionOutcome;
  post(post: Post, author: Author): CollectionOutcome;
}

/**
 * A collector that answers a batch in at most two upstream calls: one for every handle of the
 * batch, then one for the posts whose author was found, started by the first post that needs
 * it (none when no post does). A throw in either becomes `failed` for each ref that waits on it.
 */
export function authorsThenPosts<Author extends object, Post extends object>(steps: AuthorsThenPosts<Author, Post>): Collector {
  const postsOf = (postRefs: readonly ResourceRef[], authors: BatchAnswer<Author>, signal: AbortSignal): Promise<BatchAnswer<Post>> => {
    if ('refused' in authors) return Promise.resolve(authors);
    const keys = postRefs.flatMap((ref) => {
      const author = entryOf(authors, handlePart(ref.identifier), steps.absent);
      return isOutcome(author) ? [] : [steps.postKey(ref, author)];
    });
    return keys.length === 0 ? Promise.resolve({ byKey: new Map() }) : steps.fetchPosts([...new Set(keys)], signal);
  };

  return {
    maxBatch: steps.maxBatch,
    async collect(refs, signal) {
      if (refs.length === 0) return [];
      const authors = steps.fetchAuthors([...new Set(refs.map((ref) => handlePart(ref.identifier)))], signal);
      const postRefs = refs.filter((ref) => ref.type === 'post');
      let posts: Promise<BatchAnswer<Post>> | undefined;
      const postsOnce = () => (posts ??= authors.then((answer) => postsOf(postRefs, answer, signal)));
      return Promise.all(
        refs.map((ref) =>
          settle(async () => {
            const author = entryOf(await authors, handlePart(ref.identifier), steps.absent);
            if (isOutcome(author)) return author;
            if (ref.type !== 'post') return steps.account(author);
            const post = entryOf(await postsOnce(), steps.postKey(ref, author), steps.absent);
            return isOutcome(post) ? post : steps.post(post, author);
          }),
        ),
      );
    },
  };
}
