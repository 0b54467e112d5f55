// Buffers a request body from uWS with a hard cap. uWS hands out chunks backed by memory it
// reuses after the callback returns, so every chunk is copied before the callback ends.
import type { HttpResponse } from './uws.js';

export type BodyResult = { kind: 'complete'; body: Buffer } | { kind: 'tooLarge' };

export function readBody(res: HttpResponse, maxBytes: number, done: (result: BodyResult) => void): void {
  const chunks: Buffer[] = [];
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
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      finished = true;
      done({ kind: 'complete', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    }
  });
}
