// The dashboard's record writes of the resource thread, lent to an edge thread over a MessagePort
// (portCalls.ts): in a cluster they go to NATS, which only the resource thread is connected to
// (docs/dashboard.md, "In a cluster"). Each resolves once the change is in the LMDB the edge reads.
import type { MessagePort } from 'node:worker_threads';
import type { WebRecords } from '../store/webStore.js';
import { borrowCalls, lendCalls } from './portCalls.js';

const webCalls = ['addInvite', 'redeemInvite', 'putSession', 'removeSession'] as const;

export function lendWebRecords(port: MessagePort, records: WebRecords): void {
  lendCalls(port, records, webCalls);
}

export function borrowWebRecords(port: MessagePort): WebRecords {
  return borrowCalls<WebRecords, (typeof webCalls)[number]>(port, webCalls);
}
