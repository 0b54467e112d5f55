// The headers that say where a request ends, checked on every request before any route reads its
// body (docs/http.md#framing): uWebSockets.js 20.30 takes the first of two Content-Length headers
// and reads any Transfer-Encoding as chunked, so a proxy that reads them otherwise could be made
// to see a different request boundary than this server does.
import { limits } from '../config.js';
import { apiErrors } from './errors.js';
import type { Reply } from './reply.js';
import type { HttpRequest } from './uws.js';

/** What the headers of the request being checked said; reset for each, so no object is made per request. */
const seen = {
  lengths: 0,
  length: '',
  codings: 0,
  coding: '',
  authorizations: 0,
  expectsContinue: false,
};

function note(name: string, value: string): void {
  switch (name) {
    case 'content-length':
      seen.lengths++;
      seen.length = value;
      break;
    case 'transfer-encoding':
      seen.codings++;
      seen.coding = value;
      break;
    case 'authorization':
      seen.authorizations++;
      break;
    case 'expect':
      seen.expectsContinue = value.toLowerCase() === '100-continue';
      break;
  }
}

/**
 * The refusal a request's framing earns, or undefined when its headers say plainly where it ends
 * (docs/http.md#framing); reads `req`, so call it before the handler returns.
 */
export function framingRefusal(req: HttpRequest): Reply | undefined {
  seen.lengths = 0;
  seen.codings = 0;
  seen.authorizations = 0;
  seen.expectsContinue = false;
  req.forEach(note);
  // One that is not a number of bytes never gets here: uWebSockets.js closes the connection itself.
  if (seen.lengths > 1) return apiErrors.ambiguousLength;
  if (seen.codings > 1 || (seen.codings === 1 && seen.coding.toLowerCase() !== 'chunked')) return apiErrors.unsupportedCoding;
  if (seen.expectsContinue && seen.lengths === 1 && Number(seen.length) > limits.maxBodyBytes) {
    return apiErrors.expectedBodyTooLarge(limits.maxBodyBytes);
  }
  if (seen.authorizations > 1) return apiErrors.repeatedAuthorization;
  return undefined;
}
