// Buffers a request body from uWS with a hard cap, and hands it over as text
// (docs/http.md#request-bodies).
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
    // Over the cap, the body is still read and thrown away up to a bound: a client that sends it
    // all without waiting for an answer would otherwise see a reset and lose the 413.
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
    // uWS lends a chunk only until this callback returns: a body in one chunk (nearly all) is
    // decoded from the loan; chunks are copied and joined, so a character split between them decodes whole.
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
