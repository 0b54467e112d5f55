// What a dashboard or console handler hands back, free of uWebSockets.js: a page, or a
// redirect after a form that changed something (so a reload does not post it twice).
import type { SafeHtml } from './html.js';
import type { Session } from './sessions.js';

export interface WebRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** The form fields of a POST; empty for a GET. */
  form: URLSearchParams;
  /** The session the request's cookie names, when it is valid. */
  session: Session | undefined;
  /** The client's address, as the sign-in throttle counts it. */
  address: string;
  /** Whether the session cookie is to be marked Secure. */
  secure: boolean;
  /** `scheme://host` as the browser reached this server, for links such as invites. */
  origin: string;
  /** A new API token's secret the browser carries to the page that shows it once (src/web/cookies.ts). */
  newToken: string | undefined;
}

interface AnswerCookie {
  /** A session whose id the browser is to hold from now on. */
  session?: Session | undefined;
  /** The browser is to forget its session cookie (signed out). */
  clearSession?: boolean;
  /** A new token's secret to carry to the tokens page; '' to forget it once shown. */
  newToken?: { secret: string; path: string };
}

export type WebAnswer =
  | ({ kind: 'page'; status: string; body: SafeHtml; headers?: ReadonlyArray<readonly [string, string]> } & AnswerCookie)
  | ({ kind: 'redirect'; location: string } & AnswerCookie);

export const page = (body: SafeHtml, status = '200 OK', cookie: AnswerCookie = {}): WebAnswer => ({
  kind: 'page',
  status,
  body,
  ...cookie,
});
export const redirect = (location: string, cookie: AnswerCookie = {}): WebAnswer => ({ kind: 'redirect', location, ...cookie });
