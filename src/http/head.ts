// HEAD answered as GET without its body (docs/http.md#head): uWebSockets.js writes whatever body a
// handler gives, which a client that asked HEAD does not read, and the bytes would then be taken
// as the start of the next answer on a keep-alive connection.
import type { HttpResponse } from './uws.js';

/**
 * `res` for a HEAD request: an answer ended with a body says that body's Content-Length and writes
 * none; a streamed one (`write`) ends at its first chunk, with its headers only. Once ended,
 * every later call is a no-op (uWebSockets.js throws on a finished response), and `cork` still
 * runs its callback.
 */
export function bodiless(res: HttpResponse): HttpResponse {
  let ended = false;
  const endWith = (length: number | undefined): HttpResponse => {
    if (ended) return wrapped;
    ended = true;
    res.cork(() => {
      if (length !== undefined) res.writeHeader('Content-Length', String(length));
      res.endWithoutBody();
    });
    return wrapped;
  };
  const overrides: Partial<Record<keyof HttpResponse, unknown>> = {
    end: (body?: string | ArrayBuffer | ArrayBufferView) => endWith(byteLength(body)),
    tryEnd: (_body: unknown, totalSize: number) => {
      endWith(totalSize);
      return [true, true];
    },
    write: () => {
      endWith(undefined);
      return true;
    },
    endWithoutBody: () => endWith(undefined),
    cork: (callback: () => void) => {
      if (ended) callback();
      else res.cork(callback);
      return wrapped;
    },
  };
  const wrapped: HttpResponse = new Proxy(res, {
    get(target, name) {
      const override = overrides[name as keyof HttpResponse];
      if (override) return override;
      const value = Reflect.get(target, name);
      if (typeof value !== 'function') return value;
      return ended ? () => wrapped : value.bind(target);
    },
  });
  return wrapped;
}

function byteLength(body: string | ArrayBuffer | ArrayBufferView | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}
