// The keys of a NATS KV bucket, read in one request (docs/design/cluster.md#listing-a-buckets-keys).
import { Bucket, type KV } from '@nats-io/kv';

/**
 * Every key `bucket` holds an entry for, deleted ones included (their entry reads as a `DEL` or
 * `PURGE`, which every reader here skips): the subjects of the bucket's stream, from one
 * stream-info request bounded by the bucket's request timeout. nats.js's own `keys()` lists
 * through a consumer instead, and on a bucket the nodes write every two seconds such a listing
 * was seen never to end.
 */
export async function bucketKeys(bucket: KV): Promise<string[]> {
  if (!(bucket instanceof Bucket)) throw new TypeError('bucketKeys lists a bucket opened by @nats-io/kv');
  const info = await bucket.jsm.streams.info(bucket.stream, { subjects_filter: `${bucket.prefix}.>` });
  return Object.keys(info.state.subjects ?? {}).map((subject) => bucket.decodeKey(subject.slice(bucket.prefixLen)));
}
