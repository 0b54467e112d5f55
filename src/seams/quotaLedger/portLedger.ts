// A ledger of the resource thread lent to an edge thread over a MessagePort, so edges reach NATS on
// the node's one connection (docs/design/cluster.md#edge-threads-borrow-the-connection).
import type { MessagePort } from 'node:worker_threads';
import type { QuotaLedger } from './quotaLedger.js';
import { borrowCalls, lendCalls } from '../portCalls.js';

const ledgerCalls = ['read', 'swap'] as const;

/** The resource thread's side: answers every call on `port` with `ledger`. */
export function lendLedger(port: MessagePort, ledger: QuotaLedger): void {
  lendCalls(port, ledger, ledgerCalls);
}

/** The edge's side: a QuotaLedger whose calls the resource thread makes. */
export function borrowLedger(port: MessagePort): QuotaLedger {
  return borrowCalls<QuotaLedger, (typeof ledgerCalls)[number]>(port, ledgerCalls);
}
