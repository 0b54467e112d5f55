// A browser without a screen for HTTP tests of the dashboard: one cookie jar, forms posted
// with the CSRF token of the page they came from, redirects not followed (tests assert them).
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { WebStore } from '../../src/seams/webRecords/webStore.js';
import { openDatabases } from '../../src/store/environment.js';
import { createInvite } from '../../src/web/invites.js';
import { cliPath } from '../helpers/cli.js';

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export class WebClient {
  /** The session cookie's value, as the browser would hold it. */
  session: string | undefined;
  readonly setCookies: string[] = [];
  /** Other cookies, by name, with the path they are sent to. */
  private readonly jar = new Map<string, { value: string; path: string }>();

  constructor(
    readonly url: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async get(path: string): Promise<PageAnswer> {
    return this.send(path, { method: 'GET' });
  }

  async post(path: string, fields: Record<string, string>): Promise<PageAnswer> {
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Posts `fields` with the CSRF token of the form on the page at `formPage`. */
  async submit(formPage: string, action: string, fields: Record<string, string>): Promise<PageAnswer> {
    const page = await this.get(formPage);
    return this.post(action, { csrf: csrfOf(page.text), ...fields });
  }

  private async send(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<PageAnswer> {
    const cookies = [...this.jar].filter(([, cookie]) => path.startsWith(cookie.path)).map(([name, cookie]) => `${name}=${cookie.value}`);
    if (this.session !== undefined) cookies.unshift(`dp_session=${this.session}`);
    const response = await fetch(this.url + path, {
      ...init,
      redirect: 'manual',
      headers: { ...this.extraHeaders, ...init.headers, ...(cookies.length === 0 ? {} : { cookie: cookies.join('; ') }) },
    });
    for (const cookie of response.headers.getSetCookie()) {
      this.setCookies.push(cookie);
      const [, name, value] = /^([^=]+)=([^;]*)/.exec(cookie) ?? [];
      if (name === undefined || value === undefined) continue;
      if (name === 'dp_session') this.session = value === '' ? undefined : value;
      else if (value === '' || /Max-Age=0\b/.test(cookie)) this.jar.delete(name);
      else this.jar.set(name, { value, path: /Path=([^;]*)/.exec(cookie)?.[1] ?? '/' });
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}

export function csrfOf(page: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  if (token === undefined) throw new Error(`no CSRF field on the page: ${page.slice(0, 300)}`);
  return token;
}

/**
 * Invites `account` with `datapoints accounts invite`, as an operator would; returns the printed
 * link. Asynchronously: the server under test shares this process's event loop.
 */
export async function inviteLinkFor(dataDir: string, account: string, url: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cliPath, 'accounts', 'invite', account, '--data', dataDir, '--url', url]);
  const link = stdout.trim().split('\n').at(-1) ?? '';
  if (!link.startsWith(`${url}/dashboard/invite#`)) throw new Error(`accounts invite printed: ${stdout}`);
  return link;
}

/** Sets `password` for `account` through its invite and signs the client in. */
export async function signedIn(client: WebClient, dataDir: string, account: string, password: string): Promise<void> {
  const invite = (await inviteLinkFor(dataDir, account, client.url)).split('#')[1]!;
  const set = await client.submit('/dashboard/invite', '/dashboard/invite', { invite, password, confirm: password });
  if (set.status !== 303) throw new Error(`setting the password answered ${set.status}: ${set.text}`);
  const answer = await client.submit('/dashboard/signin', '/dashboard/signin', { name: account, password });
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
}

/**
 * Sets `password` for `account` through an invite made in this process on the server's data
 * directory (no CLI process: fast-tier tests), and signs the client in.
 */
export async function signedInHere(client: WebClient, dataDir: string, account: string, password: string): Promise<void> {
  const dbs = openDatabases(dataDir);
  const { secret } = await createInvite(new WebStore(dbs), account, Date.now());
  const set = await client.submit('/dashboard/invite', '/dashboard/invite', { invite: secret, password, confirm: password });
  if (set.status !== 303) throw new Error(`setting the password answered ${set.status}: ${set.text}`);
  const answer = await client.submit('/dashboard/signin', '/dashboard/signin', { name: account, password });
  if (answer.status !== 303) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
}

export interface Posted {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

/** Posts a sign-in form from `localAddress` (any of 127.0.0.0/8 is this machine), as its own client. */
export function postFrom(url: string, localAddress: string, cookie: string, fields: Record<string, string>): Promise<Posted> {
  const form = new URLSearchParams(fields).toString();
  return new Promise((resolve, reject) => {
    const sent = request(
      `${url}/dashboard/signin`,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form), cookie },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode!, retryAfter: answer.headers['retry-after'], text: Buffer.concat(chunks).toString() }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(form);
  });
}

/** A visitor's form session: its cookie and the CSRF token its form carries. */
export async function formSession(url: string) {
  const visitor = new WebClient(url);
  const csrf = csrfOf((await visitor.get('/dashboard/signin')).text);
  return { cookie: `dp_session=${visitor.session}`, csrf };
}

/** How many answers had each status. */
export function tally(answers: readonly Posted[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
