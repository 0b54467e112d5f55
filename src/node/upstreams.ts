// The platforms this node reaches (docs/architecture.md#the-assemblies): the real ones or an
// emulator, their collectors, and the board of what each platform's collection is doing, which
// the front end shows even where this node does not collect.
import type { RunningEmulator } from '../emulator/server.js';
import type { Logger } from '../log.js';
import { PlatformStatusBoard } from '../operations/platformStatus.js';
import type { PlatformCode } from '../model.js';
import { createCollectors, type PlatformCollector } from '../platforms/collectors.js';
import type { HostAllowList } from '../platforms/hostSafety/allowList.js';
import { createGuardedHttp } from '../platforms/hostSafety/guardedHttp.js';
import { createUpstreamHttp } from '../platforms/http.js';

export interface UpstreamsOptions {
  /** 'real', 'emulator' (started in-process on loopback) or an emulator's base URL. */
  upstream: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Hosts and ranges the host guard lets through (`--allow-private-hosts`); none when absent. */
  allowPrivateHosts?: HostAllowList | undefined;
  /** Requests waiting in the collection queue; null when it cannot tell. */
  queueDepth: () => number | null;
  log: Logger;
}

export interface Upstreams {
  collectors: ReadonlyMap<PlatformCode, PlatformCollector>;
  platformStatus: PlatformStatusBoard;
  emulator: RunningEmulator | undefined;
  /** The emulator's base URL; undefined for the real platforms. */
  emulatorUrl: string | undefined;
  stop(): Promise<void>;
}

export async function openUpstreams(options: UpstreamsOptions): Promise<Upstreams> {
  const { log } = options;
  // Loaded only when asked for: a production server runs no emulator code (docs/operations-endpoints.md#the-emulator-stays-out).
  const emulator = options.upstream === 'emulator' ? await (await import('../emulator/server.js')).startEmulator(0) : undefined;
  const emulatorUrl = emulator?.url ?? (options.upstream === 'real' ? undefined : options.upstream.replace(/\/+$/, ''));
  const upstreamHttp = createUpstreamHttp();
  // Only the real platforms connect to hosts that references name; an emulator is the one URL
  // the operator chose, which the guard would refuse as loopback (docs/host-safety.md#which-calls).
  const guardedHttp = emulatorUrl === undefined ? createGuardedHttp({ allowList: options.allowPrivateHosts }) : undefined;
  const collectors = createCollectors(emulatorUrl, options.env, upstreamHttp, Date.now, guardedHttp);
  const allowed = options.allowPrivateHosts?.entries ?? [];
  if (guardedHttp && allowed.length > 0) log.warn({ allowed }, `host guard lets through: ${allowed.join(', ')}`);
  for (const [platform, { disabledReason, limitedReason }] of collectors) {
    if (disabledReason) log.warn({ platform }, `platform disabled: ${disabledReason}; its resources stay unavailable`);
    if (limitedReason) log.warn({ platform }, `platform limited: ${limitedReason}; those stay unavailable, the others are collected`);
  }
  const platformStatus = new PlatformStatusBoard(collectors, Date.now, options.queueDepth);
  // docs/operations.md#collection-failing: a warn line per failing platform, at most once a minute.
  platformStatus.warnOnFailures(log);
  return {
    collectors,
    platformStatus,
    emulator,
    emulatorUrl,
    async stop() {
      await Promise.all([upstreamHttp.close(), guardedHttp?.close()]);
      emulator?.close();
    },
  };
}
