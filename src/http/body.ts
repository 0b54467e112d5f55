// Buffers a request body from uWS with a hard cap, and hands it over as text. uWS lends each
// chunk only until its callback returns: a body that comes in one chunk (nearly all of them)
// is decoded straight from the loan; only a body in several chunks is copied to be joined,
// so a character split between chunks is decoded whole.
import type { HttpResponse } from './uws.js';

export type BodyResult = { kind: 'complete'; text: string } | { kind: 'tooLarge' };

export function readBody(res: HttpResponse, maxBytes: number, done: (result: BodyResult) => void): void {
  let chunks: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (size > maxBytes) {
      finished = true;
      done({ kind: 'tooLarge' });
      return;
    }
    if (isLast && !chunks) {
      finished = true;
      done({ kind: 'complete', text: Buffer.from(chunk).toString('utf8') });
      return;
    }
    (chunks ??= []).push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      finished = true;
      done({ kind: 'complete', text: Buffer.concat(chunks, size).toString('utf8') });
    }
  });
}
