// The session cookie (docs/dashboard.md#cookies): HttpOnly, SameSite=Strict, Path=/, and
// Secure when the request came over TLS (`X-Forwarded-Proto: https` from a proxy) or the
// server was told its users always reach it over TLS (`--secure-cookies`).

export const sessionCookie = 'dp_session';

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    if (part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return undefined;
}

export function setSessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${sessionCookie}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function clearSessionCookie(secure: boolean): string {
  return setSessionCookie('', 0, secure);
}

/**
 * A new API token's secret, carried from the form's answer to the page it redirects to, which
 * shows it once and clears it (docs/dashboard.md#api-tokens): only the tokens page receives it,
 * and it lapses after two minutes if that page is never shown.
 */
export const newTokenCookie = 'dp_new_token';

export function setNewTokenCookie(secret: string, path: string, secure: boolean): string {
  return `${newTokenCookie}=${secret}; HttpOnly; SameSite=Strict; Path=${path}; Max-Age=${secret === '' ? 0 : 120}${secure ? '; Secure' : ''}`;
}
