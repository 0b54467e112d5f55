// The composition root: one node of the service with its store, access control, resource
// host, collection streams and HTTP front end, and the order in which they stop.
import { asyncScheduler, mergeMap, Subject, Subscription, from, finalize } from 'rxjs';
import { createResourceMachine, type ResourcePolicy } from '../machines/resource.js';
import { eventForOutcome } from '../machines/outcomeEvent.js';
import type { BreakerPolicy } from '../streams/circuitBreaker.js';
import { collectResources } from '../streams/collection.js';
import { dueWork } from '../streams/dueWork.js';
import { InFlight } from '../streams/inFlight.js';
import { Admissions } from './access/admission.js';
import { Authenticator } from './access/authenticator.js';
import { AccountTable } from './access/accountTable.js';
import { collectionDefaults, limits } from './config.js';
import { startEmulator, type RunningEmulator } from './emulator/server.js';
import { startHttpServer } from './http/server.js';
import { requestIdSource } from './http/requestIds.js';
import type { Logger } from './log.js';
import { createCollectors } from './platforms/collectors.js';
import { createUpstreamHttp } from './platforms/http.js';
import { ResourceHost } from './resources/host.js';
import { WorkPace } from './resources/workPace.js';
import { AccountStore } from './store/accountStore.js';
import { openDatabases } from './store/environment.js';
import { ResourceStore } from './store/resourceStore.js';
import { UsageStore } from './store/usageStore.js';

export interface ServiceOptions {
  host: string;
  port: number;
  dataDir: string;
  /** 'real', 'emulator' (started in-process on loopback) or an emulator's base URL. */
  upstream: string;
  policy: ResourcePolicy;
  log: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  collectTimeoutMs?: number;
  /** Per-platform circuit breaker; collectionDefaults.breaker when absent. */
  breaker?: BreakerPolicy;
}

export interface RunningService {
  port: number;
  /** The service's own account store, for provisioning in the same process (tests, tools). */
  accounts: AccountStore;
  emulator?: RunningEmulator;
  stop(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { log } = options;
  const dbs = openDatabases(options.dataDir);
  const store = new ResourceStore(dbs);
  const emulator = options.upstream === 'emulator' ? await startEmulator(0) : undefined;
  const emulatorUrl = emulator?.url ?? (options.upstream === 'real' ? undefined : options.upstream.replace(/\/+$/, ''));
  const upstreamHttp = createUpstreamHttp();
  const collectors = createCollectors(emulatorUrl, options.env ?? process.env, upstreamHttp, Date.now);
  for (const [platform, { disabledReason }] of collectors) {
    if (disabledReason) log.warn({ platform }, `platform disabled: ${disabledReason}; its resources stay unavailable`);
  }

  const demand = new Subject<string>();
  const inFlight = new InFlight();
  const workPace = new WorkPace(Date.now);
  const host = new ResourceHost({
    store,
    machine: createResourceMachine(options.policy),
    requestCollection: (key) => demand.next(key),
    now: Date.now,
    onError: (key, error) => log.error({ err: error, resource: key }, 'resource event failed'),
    workPerTurn: () => workPace.perTurn(),
  });

  const collection = collectResources(demand.pipe(inFlight.admit()), {
    collectors,
    scheduler: asyncScheduler,
    timeoutMs: options.collectTimeoutMs ?? collectionDefaults.timeoutMs,
    batchWindowMs: collectionDefaults.batchWindowMs,
    ...(options.breaker ? { breaker: options.breaker } : {}),
  }).pipe(
    mergeMap(({ key, outcome }) => {
      if (outcome.kind === 'failed') log.info({ resource: key, reason: outcome.reason }, 'collection failed');
      return from(host.send(key, eventForOutcome(outcome, Date.now(), Math.random()))).pipe(finalize(() => inFlight.release(key)));
    }),
  );
  const dueRoom = () => Math.min(limits.dueScanBatch, limits.maxResourcesInWork - host.busy - inFlight.size);
  const subscriptions = new Subscription();
  subscriptions.add(collection.subscribe());
  subscriptions.add(
    dueWork(store, limits.dueScanMs, dueRoom, asyncScheduler).subscribe((due) => {
      void host.send(due.key, { type: due.event, at: Date.now() });
    }),
  );

  const accounts = new AccountStore(dbs);
  const authenticator = new Authenticator(accounts, log);
  const admissions = new Admissions({ table: AccountTable.create(), ledger: new UsageStore(dbs), log, now: Date.now });
  const http = await startHttpServer(options.host, options.port, {
    authenticator,
    admissions,
    host,
    workPace,
    log,
    nextRequestId: requestIdSource(),
    now: Date.now,
  });
  log.info({ port: http.port, upstream: emulatorUrl ?? 'real', resources: store.count() }, 'service started');

  return {
    port: http.port,
    accounts,
    ...(emulator ? { emulator } : {}),
    async stop() {
      await http.close();
      await admissions.returnUnspent();
      subscriptions.unsubscribe();
      authenticator.close();
      await host.settled();
      await upstreamHttp.close();
      emulator?.close();
      await dbs.root.close();
    },
  };
}
