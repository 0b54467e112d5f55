// The dashboard's writes of the resource thread, lent to an edge thread over MessagePorts: in a
// cluster they go to NATS, which only the resource thread reaches (docs/dashboard.md#in-a-cluster).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { AccountChangeWrites } from '../../store/accountStore.js';
import type { DashboardWrites, WebRecords } from './webStore.js';
import { borrowCalls, lendCalls } from '../portCalls.js';

/** The edge's ends of the two ports. */
export interface DashboardPorts {
  records: MessagePort;
  accounts: MessagePort;
}

const recordCalls = ['addInvite', 'redeemInvite', 'putSession', 'removeSession'] as const;
const accountCalls = ['createAccount', 'updateAccount', 'suspendAccount', 'resumeAccount', 'addToken', 'revokeToken'] as const;

/** The resource thread's side: lends `writes` and returns the ports to hand (and transfer) to the edge. */
export function lendDashboardWrites(writes: DashboardWrites): DashboardPorts {
  const records = new MessageChannel();
  const accounts = new MessageChannel();
  lendCalls(records.port1, writes.records, recordCalls);
  lendCalls(accounts.port1, writes.accounts, accountCalls);
  return { records: records.port2, accounts: accounts.port2 };
}

/** The edge's side: invites, passwords, sessions, accounts and tokens, each resolved once the change is in the LMDB the edge reads. */
export function borrowDashboardWrites(ports: DashboardPorts): DashboardWrites {
  return {
    records: borrowCalls<WebRecords, (typeof recordCalls)[number]>(ports.records, recordCalls),
    accounts: borrowCalls<AccountChangeWrites, (typeof accountCalls)[number]>(ports.accounts, accountCalls),
  };
}
