// Buffers a request body from uWS with a hard cap, and hands it over as text. uWS lends each
// chunk only until its callback returns: a body that comes in one chunk (nearly all of them)
// is decoded straight from the loan; only a body in several chunks is copied to be joined,
// so a character split between chunks is decoded whole.
//
// A body over the cap is still read, and thrown away, up to a bounded amount: a client that
// sends its whole body without waiting for an answer would otherwise see the connection
// reset under it and lose the 413 (docs/http.md#request-bodies).
import { limits } from '../config.js';
import type { HttpResponse } from './uws.js';

export type BodyResult =
  | { kind: 'complete'; text: string }
  /** `drained`: the whole body was read, so the connection can stay open after the 413. */
  | { kind: 'tooLarge'; drained: boolean };

/**
 * Reads the body of `res`, at most `maxBytes` of it; `declaredBytes` is its Content-Length
 * (0 when absent), so that a body announced as too large is discarded from its first byte.
 */
export function readBody(res: HttpResponse, maxBytes: number, done: (result: BodyResult) => void, declaredBytes = 0): void {
  const { maxDiscardedBodyBytes } = limits;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let tooLarge = declaredBytes > maxBytes;
  let finished = false;
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (tooLarge || size > maxBytes) {
      tooLarge = true;
      chunks = undefined;
      if (isLast || size > maxBytes + maxDiscardedBodyBytes) {
        finished = true;
        done({ kind: 'tooLarge', drained: isLast });
      }
      return;
    }
    if (isLast && !chunks) {
      finished = true;
      done({ kind: 'complete', text: Buffer.from(chunk).toString('utf8') });
      return;
    }
    chunks ??= [];
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      finished = true;
      done({ kind: 'complete', text: Buffer.concat(chunks, size).toString('utf8') });
    }
  });
}
