// Test helpers for platform folders: a collector against fixtures, or against the emulator.
import { readFileSync } from 'node:fs';
import type { CollectionOutcome, PlatformCode, ResourceRef, ResourceType } from '../../src/model.js';
import { emulatedCounts } from '../../src/emulator/counts.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { createCollectors, type PlatformCollector } from '../../src/platforms/collectors.js';
import { createUpstreamHttp, type UpstreamHttp, type UpstreamResponse } from '../../src/platforms/http.js';
import { platforms } from '../../src/platforms/registry.js';
import type { Collector } from '../../src/platforms/types.js';

export const fixedNow = Date.UTC(2026, 10, 23, 12, 0, 0);
/** References to one platform and type: `const account = refsTo('github', 'account'); account('octocat')`. */
export const refsTo =
  (platform: PlatformCode, type: ResourceType) =>
  (identifier: string): ResourceRef => ({ platform, type, identifier });
/** A signal never aborted, for collector calls that run to their end. */
export const signal = new AbortController().signal;
/** Every collector's answer to a body that is not the platform's shape: a failure, never a zero. */
export const unparsable = { kind: 'failed', reason: 'upstream body does not match the expected shape' };

/** A datapoint as a collector reports it: its value and the platform's term for it. */
type Reported = readonly [value: number | boolean | null, semantic: string];
const reported = <Name extends string>(points: Record<Name, Reported>) =>
  Object.fromEntries(Object.entries<Reported>(points).map(([name, [value, semantic]]) => [name, { value, semantic }])) as Record<
    Name,
    { value: Reported[0]; semantic: string }
  >;

/** The found outcome a collector must answer, written `{ followers: [42, 'followers'], ... }`. */
export const foundOutcome = <Name extends string>(metrics: Record<Name, Reported>, attributes?: Record<string, Reported>) => ({
  kind: 'found',
  datapoints: { metrics: reported(metrics), ...(attributes ? { attributes: reported(attributes) } : {}) },
});

export function fixture(platform: PlatformCode, name: string): string {
  return readFileSync(new URL(`../../src/platforms/${platform}/fixtures/${name}`, import.meta.url), 'utf8');
}

/**
 * An upstream that answers each URL by the first route whose pattern it contains, and records
 * calls: a GET as its URL, a token POST as `POST <url> <body>`.
 */
export function fixtureHttp(routes: Array<[RegExp, UpstreamResponse]>): UpstreamHttp & { calls: string[] } {
  const calls: string[] = [];
  const answer = (url: string) => {
    const route = routes.find(([pattern]) => pattern.test(url));
    if (!route) throw new Error(`no fixture route for ${url}`);
    return route[1];
  };
  return {
    calls,
    async get(url) {
      calls.push(url);
      return answer(url);
    },
    async post(url, _headers, body) {
      calls.push(`POST ${url} ${body}`);
      return answer(url);
    },
  };
}

export const reply = (status: number, body: string, headers: Record<string, string> = {}): UpstreamResponse => ({
  status,
  headers,
  body,
});

/**
 * A collector of `platform` pointed at a fixture upstream, with every credential set unless
 * `credentials` says otherwise. An upstream without `post` refuses token calls.
 */
export function collectorWithFixtures(
  platform: PlatformCode,
  http: Pick<UpstreamHttp, 'get'> & Partial<UpstreamHttp>,
  credentials?: Readonly<Record<string, string | undefined>>,
): Collector {
  const definition = platforms.get(platform)!;
  const everyCredential = Object.fromEntries(
    [...definition.requiredCredentials, ...definition.optionalCredentials].map((name) => [name, 'test-credential']),
  );
  const upstream: UpstreamHttp = {
    get: (url, headers, signal) => http.get(url, headers, signal),
    post: http.post ?? ((url) => Promise.reject(new Error(`no token call expected: ${url}`))),
  };
  const origins = Object.fromEntries(
    Object.keys(definition.realOrigins ?? {}).map((name) => [name, `https://${name}.${platform}.example`]),
  );
  return definition.createCollector({
    baseUrl: `https://${platform}.example`,
    origins,
    // A host a reference names is called as on the real internet, so a test reads the real URL.
    hostUrl: (host) => `https://${host}`,
    credentials: credentials ?? everyCredential,
    http: upstream,
    now: () => fixedNow,
  });
}

/**
 * What `collect` answered against the emulator of `emulatedCollectors` (on the fixed clock),
 * with the emulated counts of `platform` it must carry: emulated counts drift hourly, so a
 * test on the wall clock could fail at an hour boundary.
 */
export async function onFixedClock<T>(platform: PlatformCode, collect: () => Promise<T>) {
  const result = await collect();
  return { result, counts: (type: ResourceType, normalized: string) => emulatedCounts(platform, type, normalized, fixedNow) };
}

export interface EmulatedCollectors {
  emulator: RunningEmulator;
  collectors: ReadonlyMap<PlatformCode, PlatformCollector>;
  collect(platform: PlatformCode, type: ResourceType, identifier: string): Promise<CollectionOutcome>;
  collectMany(platform: PlatformCode, refs: Array<[ResourceType, string]>): Promise<CollectionOutcome[]>;
  close(): Promise<void>;
}

/**
 * Real collectors against a real emulator on a free loopback port, both on the fixed clock
 * (`fixedNow`); identifiers are normalized as the service does.
 */
export async function emulatedCollectors(): Promise<EmulatedCollectors> {
  const now = () => fixedNow;
  const emulator = await startEmulator(0, now);
  const http = createUpstreamHttp();
  const collectors = createCollectors(emulator.url, {}, http, now);
  const toRef = (platform: PlatformCode, type: ResourceType, identifier: string): ResourceRef => ({
    platform,
    type,
    identifier: platforms.get(platform)!.identifiers[type]!.normalize(identifier),
  });
  const collectMany = (platform: PlatformCode, refs: Array<[ResourceType, string]>) =>
    collectors.get(platform)!.collector.collect(
      refs.map(([type, id]) => toRef(platform, type, id)),
      new AbortController().signal,
    );
  return {
    emulator,
    collectors,
    collectMany,
    collect: async (platform, type, identifier) => (await collectMany(platform, [[type, identifier]]))[0]!,
    close: async () => {
      await http.close();
      emulator.close();
    },
  };
}
