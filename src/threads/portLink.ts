// The node's EdgeLink lent to an edge thread over MessagePorts (lendLink) and borrowed there
// (borrowLink); the edge reads views, history and the embedded ledger from the LMDB itself.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { limits } from '../config.js';
import type { Health } from '../health.js';
import { healthCheck, type ReadinessProblem } from '../http/readiness.js';
import { EdgeMetrics } from '../metrics/edgeMetrics.js';
import { PostedPlatformStatus } from '../operations/platformStatus.js';
import type { ResourceDemand } from '../resources/demand.js';
import { borrowLedger, lendLedger } from '../seams/quotaLedger/portLedger.js';
import { UsageStore } from '../seams/quotaLedger/usageStore.js';
import { InProcessViewChanges, type ViewChanges } from '../seams/viewChanges/viewChanges.js';
import { borrowDashboardWrites, lendDashboardWrites } from '../seams/webRecords/portDashboardWrites.js';
import type { PasswordHashing } from '../web/passwordHasher.js';
import { borrowCalls, lendCalls } from '../seams/portCalls.js';
import { DatapointSeries } from '../store/datapointSeries.js';
import type { AccountsCatchUp } from '../store/accountStore.js';
import type { Databases } from '../store/environment.js';
import type { DemandMessage, FromEdge, LinkPorts, PostedViews, ToEdge } from './edgeMessages.js';
import type { EdgeLink, NodeLink } from './edgeLink.js';
import { EdgeViews } from './edgeViews.js';

const catchUpCalls = ['catchUp'] as const;

/** The node's end of an edge thread's control channel: its Worker (or, in a test, a MessagePort). */
export interface EdgeControl {
  postMessage(message: ToEdge): void;
  on(event: 'message', listener: (message: FromEdge) => void): unknown;
}

/** A link lent: the edge's ends (for its EdgeSetup, to transfer), and what hears the edge once it runs. */
export interface LentLink {
  ports: LinkPorts;
  transfer: MessagePort[];
  /**
   * Posts the node's health to the edge from now on, and takes its metrics and problems; the
   * returned function stops posting to it, once it has ended.
   */
  attach(edge: EdgeControl): () => void;
}

export function lendLink(link: NodeLink): LentLink {
  const views = new MessageChannel();
  const demand = new MessageChannel();
  const ledger = link.lendLedger ? new MessageChannel() : undefined;
  const rateLedger = link.rateLedger ? new MessageChannel() : undefined;
  const dashboard = lendDashboardWrites(link.dashboard);
  const passwords = new MessageChannel();
  lendCalls(passwords.port1, link.passwords, ['derive']);
  const accountsCatchUp = link.accountsCatchUp ? new MessageChannel() : undefined;
  if (accountsCatchUp && link.accountsCatchUp) lendCalls(accountsCatchUp.port1, link.accountsCatchUp, catchUpCalls);
  if (ledger) lendLedger(ledger.port1, link.ledger);
  if (rateLedger && link.rateLedger) lendLedger(rateLedger.port1, link.rateLedger);
  const stopViews = publishViews(link.changes, views.port1);
  receiveDemand(demand.port1, link.demand);
  return {
    ports: {
      views: views.port2,
      demand: demand.port2,
      ledger: ledger?.port2,
      rateLedger: rateLedger?.port2,
      dashboard,
      passwords: passwords.port2,
      accountsCatchUp: accountsCatchUp?.port2,
      history: link.history.policy,
      metrics: link.metrics !== undefined,
    },
    transfer: [
      views.port2,
      demand.port2,
      passwords.port2,
      ...(ledger ? [ledger.port2] : []),
      ...(rateLedger ? [rateLedger.port2] : []),
      dashboard.records,
      dashboard.accounts,
      ...(accountsCatchUp ? [accountsCatchUp.port2] : []),
    ],
    attach(edge) {
      const stopHealth = publishHealth(link.health, edge);
      edge.on('message', (message) => {
        if (message.type === 'metrics') link.metrics?.addEdgeCounts(message.counts);
        else if (message.type === 'problem') {
          if (message.message === null) link.health.clear(message.component);
          else link.health.report(message.component, message.message);
        }
      });
      return () => {
        stopViews();
        stopHealth();
        views.port1.close();
      };
    },
  };
}

/** The link as an edge thread has it; `control` is the thread's port to its parent. */
export interface BorrowedLink extends EdgeLink {
  /** Stops posting metrics (posting what is counted a last time) and closes the ports. */
  close(): void;
}

export function borrowLink(ports: LinkPorts, dbs: Databases, control: MessagePort): BorrowedLink {
  const tell = (message: FromEdge) => control.postMessage(message);
  const changes = new InProcessViewChanges();
  const views = new EdgeViews(dbs, ports.views, changes);
  // docs/operations-endpoints.md#readiness-with-threads: as the resource thread last told.
  let resourceProblems: readonly ReadinessProblem[] = [];
  // docs/operations.md#platform-status: as the resource thread last posted it.
  const platformStatus = new PostedPlatformStatus();
  control.on('message', (message: ToEdge) => {
    if (message.type === 'health') resourceProblems = message.problems;
    else if (message.type === 'platformStatus') platformStatus.take(message.snapshot);
  });
  const metrics = ports.metrics ? new EdgeMetrics() : undefined;
  const postMetrics = () => {
    const counts = metrics?.drain();
    if (counts) tell({ type: 'metrics', counts });
  };
  const posting = metrics ? setInterval(postMetrics, limits.edgeMetricsPostMs) : undefined;
  return {
    views,
    changes,
    demand: new DemandMessenger(ports.demand),
    history: new DatapointSeries(dbs, ports.history),
    ledger: ports.ledger ? borrowLedger(ports.ledger) : new UsageStore(dbs),
    rateLedger: ports.rateLedger ? borrowLedger(ports.rateLedger) : undefined,
    dashboard: borrowDashboardWrites(ports.dashboard),
    passwords: borrowCalls<PasswordHashing, 'derive'>(ports.passwords, ['derive']),
    accountsCatchUp: ports.accountsCatchUp ? borrowCalls<AccountsCatchUp, 'catchUp'>(ports.accountsCatchUp, catchUpCalls) : undefined,
    readiness: () => resourceProblems,
    problems: {
      report: (component, message) => tell({ type: 'problem', component, message }),
      clear: (component) => tell({ type: 'problem', component, message: null }),
    },
    platformStatus,
    metrics,
    close() {
      clearInterval(posting);
      postMetrics();
      views.close();
      ports.demand.close();
    },
  };
}

/**
 * Posts every view `changes` hears from now on to `edge` (docs/guarantees.md#threads): as soon
 * as the writes resolved with it have run their callbacks (a microtask later), before the
 * resource's next step can begin. So an edge receives a resource's views in write order, and a
 * view older than one on disk was always posted before that one landed (EdgeViews relies on
 * this). The views of one LMDB transaction go in one message: a postMessage costs more than the
 * rest of a collection's step (bench/README.md#cost-account).
 */
export function publishViews(changes: ViewChanges, edge: MessagePort): () => void {
  let batch: PostedViews = [];
  const post = (): void => {
    const views = batch;
    batch = [];
    edge.postMessage(views);
  };
  return changes.listen((key, view) => {
    if (batch.length === 0) queueMicrotask(post);
    batch.push(key, view.entryEnd, view.refreshAfter);
  });
}

/**
 * Tells `listener` the problems of `health` now, and again each time they change, so that
 * /readyz on any edge answers for the whole server (docs/operations-endpoints.md#readiness-with-threads);
 * the returned function stops.
 */
export function publishHealth(health: Health, listener: { postMessage(message: ToEdge): void }): () => void {
  const asProblems = healthCheck(health);
  const post = () => {
    const problems: ReadinessProblem[] = [...asProblems()];
    listener.postMessage({ type: 'health', problems });
  };
  post();
  return health.onChanged(post);
}

/** The edge's side of ResourceDemand: posts what searches want to the resource thread, the only writer of resources. */
export class DemandMessenger implements ResourceDemand {
  constructor(private readonly port: MessagePort) {}

  wanted(keys: readonly string[], at: number): void {
    const message: DemandMessage = [keys, at];
    this.port.postMessage(message);
  }
}

/** The resource thread's side: hands every message from an edge to `demand`. */
export function receiveDemand(port: MessagePort, demand: ResourceDemand): void {
  port.on('message', ([keys, at]: DemandMessage) => demand.wanted(keys, at));
}
