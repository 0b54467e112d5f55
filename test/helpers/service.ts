// A whole service in this process on a free port, with its own temp data directory and
// emulator, torn down with the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { defaultPolicy } from '../../src/config.js';
import { createAccount, issueToken, type AccountSettings } from '../../src/access/provisioning.js';
import { silentLogger } from '../../src/log.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/service.js';
import type { ResourcePolicy } from '../../machines/resource.js';
import { checkAgainstOpenApi } from './openapi.js';

export const searchPath = '/api/v1/resources/search';
const builtService = new URL('../../dist/src/service.js', import.meta.url).href;

export interface TestService {
  service: RunningService;
  url: string;
  dataDir: string;
  /** An account with a fresh token; returns the bearer secret. */
  tokenFor(name: string, settings?: AccountSettings): Promise<string>;
  search(token: string | undefined, body: unknown, headers?: Record<string, string>): Promise<SearchAnswer>;
}

export interface SearchAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export function tempDataDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function startTestService(
  t: Test,
  {
    built,
    ...options
  }: { policy?: Partial<ResourcePolicy>; dataDir?: string; built?: boolean } & Partial<Omit<ServiceOptions, 'policy'>> = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? tempDataDir(t);
  // Edge threads load their module from dist/ (npx tsc -p tsconfig.build.json): a test of them runs the built service.
  const start = built ? ((await import(builtService)) as typeof import('../../src/service.js')).startService : startService;
  const service = await start({
    host: '127.0.0.1',
    port: 0,
    upstream: 'emulator',
    log: silentLogger,
    env: {},
    ...options,
    dataDir,
    policy: { ...defaultPolicy, ...options.policy },
  });
  let stopped = false;
  const stop = service.stop;
  service.stop = async () => {
    if (stopped) return;
    stopped = true;
    await stop();
  };
  t.teardown(() => service.stop());
  const url = `http://127.0.0.1:${service.port}`;
  return {
    service,
    url,
    dataDir,
    async tokenFor(name, settings = {}) {
      if (!service.accounts.account(name)) await createAccount(service.accounts, name, settings, Date.now());
      return (await issueToken(service.accounts, name, Date.now())).secret;
    },
    async search(token, body, headers = {}) {
      const response = await fetch(url + searchPath, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      const answer = { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
      // Every answer an end-to-end test sees is held to the OpenAPI document (docs/operations-endpoints.md).
      const departures = await checkAgainstOpenApi({ method: 'POST', path: searchPath, ...answer });
      if (departures.length > 0) throw new Error(`answer ${answer.status} departs from the OpenAPI document: ${departures.join('; ')}`);
      return answer;
    },
  };
}

export { eventually } from './eventually.js';
