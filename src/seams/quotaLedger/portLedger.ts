// A ledger of the resource thread (the quota's; in a cluster also the rate windows'), lent to an
// edge thread over a MessagePort (portCalls.ts; docs/cluster.md#edge-threads-in-a-cluster). A
// NATS connection cannot cross threads; rather than one connection per edge, edges send their few
// ledger calls (one per reserved block, not one per request) to the resource thread, which makes
// them on the node's one connection.
import type { MessagePort } from 'node:worker_threads';
import type { QuotaLedger } from './quotaLedger.js';
import { borrowCalls, lendCalls } from '../../threads/portCalls.js';

const ledgerCalls = ['read', 'swap'] as const;

/** The resource thread's side: answers every call on `port` with `ledger`. */
export function lendLedger(port: MessagePort, ledger: QuotaLedger): void {
  lendCalls(port, ledger, ledgerCalls);
}

/** The edge's side: a QuotaLedger whose calls the resource thread makes. */
export function borrowLedger(port: MessagePort): QuotaLedger {
  return borrowCalls<QuotaLedger, (typeof ledgerCalls)[number]>(port, ledgerCalls);
}
