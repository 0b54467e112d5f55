// Builds one collector per platform for an upstream choice: the real platforms, or an
// emulator base URL under which each platform lives at `/<platform>`.
import { type CollectingPlatform, type Collector, failed, type PlatformCode, type ResourceRef } from '../model.js';
import { upstreamLimits } from '../config.js';
import { hostOf } from './federated.js';
import type { UpstreamHttp } from './http.js';
import { platforms } from './registry.js';
import type { PlatformDefinition } from './types.js';

export interface PlatformCollector extends CollectingPlatform {
  /** Why this platform cannot collect at all (missing credentials), reported once at start. */
  disabledReason?: string;
  /** Which of its references this platform cannot collect (missing credentials it needs only for those), reported once at start. */
  limitedReason?: string;
}

/**
 * `guardedHttp` is the host guard's client, which real collectors of platforms whose references
 * name hosts call through; against an emulator every platform calls the one URL the operator
 * chose, through `http` (docs/host-safety.md#which-calls).
 */
export function createCollectors(
  emulatorUrl: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  http: UpstreamHttp,
  now: () => number,
  guardedHttp?: UpstreamHttp,
): Map<PlatformCode, PlatformCollector> {
  const collectors = new Map<PlatformCode, PlatformCollector>();
  for (const platform of platforms.values()) {
    const collector =
      emulatorUrl === undefined
        ? realCollector(platform, env, realHttpOf(platform, http, guardedHttp), now)
        : emulatedCollector(platform, emulatorUrl, http, now);
    collectors.set(platform.code, platform.hostsNamedByCallers ? { ...collector, hostOf } : collector);
  }
  return collectors;
}

/** The client a real collector calls through; never the plain one for hosts that references name. */
export function realHttpOf(
  platform: Pick<PlatformDefinition<string>, 'code' | 'hostsNamedByCallers'>,
  http: UpstreamHttp,
  guardedHttp: UpstreamHttp | undefined,
): UpstreamHttp {
  if (!platform.hostsNamedByCallers) return http;
  if (guardedHttp === undefined)
    throw new Error(`${platform.code} connects to hosts that references name: it needs the host guard's client`);
  return guardedHttp;
}

function emulatedCollector(platform: PlatformDefinition, emulatorUrl: string, http: UpstreamHttp, now: () => number): PlatformCollector {
  const credentials = Object.fromEntries(
    [...platform.requiredCredentials, ...platform.optionalCredentials].map((name) => [name, 'emulator']),
  );
  const baseUrl = `${emulatorUrl}/${platform.code}`;
  const origins = Object.fromEntries(Object.keys(platform.realOrigins ?? {}).map((name) => [name, baseUrl]));
  // docs/platforms.md#federated-platforms: a call to https://HOST/PATH goes to <emulator>/<platform>/HOST/PATH.
  const hostUrl = (host: string) => `${baseUrl}/${host}`;
  const collector = platform.createCollector({ baseUrl, origins, hostUrl, credentials, http, now });
  return { collector, budget: upstreamLimits.emulatorBudget };
}

function realCollector(
  platform: PlatformDefinition,
  env: Readonly<Record<string, string | undefined>>,
  http: UpstreamHttp,
  now: () => number,
): PlatformCollector {
  const missing = platform.requiredCredentials.filter((name) => !env[name]);
  const credentials = Object.fromEntries(
    [...platform.requiredCredentials, ...platform.optionalCredentials].map((name) => [name, env[name]]),
  );
  const origins = platform.realOrigins ?? {};
  const baseUrl = platform.realBaseUrl ?? '';
  const create = () => platform.createCollector({ baseUrl, origins, hostUrl: realHostUrl, credentials, http, now });
  // The collector reads the same credentials to choose its mode, so budget and mode agree.
  const anonymous = platform.optionalCredentials.some((name) => !env[name]);
  const budget = (anonymous ? platform.anonymousBudget : undefined) ?? platform.budget;
  if (missing.length === 0) return { collector: create(), budget };
  const needs = `${platform.code} needs ${missing.join(', ')} in the environment`;
  const scope = platform.credentialScope;
  if (!scope) {
    const collector: Collector = { maxBatch: 1, collect: async (refs) => refs.map(() => failed(needs)) };
    return { collector, budget, disabledReason: needs };
  }
  const reason = `${needs} for ${scope.needing}`;
  return { collector: withoutCredentials(create(), scope.needs, reason), budget, limitedReason: reason };
}

/** A host a reference names, on the real internet: HTTPS only (docs/platforms.md#federated-platforms). */
const realHostUrl = (host: string) => `https://${host}`;

/** `collector` for the references that need no credentials; the others fail with `reason`, uncalled. */
function withoutCredentials(collector: Collector, needs: (ref: ResourceRef) => boolean, reason: string): Collector {
  return {
    maxBatch: collector.maxBatch,
    async collect(refs, signal) {
      const collectable = refs.filter((ref) => !needs(ref));
      const outcomes = collectable.length > 0 ? await collector.collect(collectable, signal) : [];
      let next = 0;
      return refs.map((ref) => (needs(ref) ? failed(reason) : (outcomes[next++] ?? failed('collector returned no outcome'))));
    },
  };
}
