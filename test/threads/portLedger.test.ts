// The ledger an edge thread borrows over a MessagePort passes the quota ledger contract, and a
// call the lender cannot make is an error on the borrower's side, never an answer.
import { MessageChannel } from 'node:worker_threads';
import t, { type Test } from 'tap';
import type { QuotaLedger } from '../../src/seams/quotaLedger/quotaLedger.js';
import { borrowLedger, lendLedger } from '../../src/seams/quotaLedger/portLedger.js';
import { MemoryLedger } from '../access/memoryLedger.js';
import { quotaLedgerContract } from '../../src/seams/quotaLedger/quotaLedger.contract.js';

function borrow(t: Test, ledger: QuotaLedger): QuotaLedger {
  const channel = new MessageChannel();
  t.teardown(() => {
    channel.port1.close();
    channel.port2.close();
  });
  lendLedger(channel.port1, ledger);
  return borrowLedger(channel.port2);
}

quotaLedgerContract(t, 'ledger lent over a MessagePort', async (t) => borrow(t, new MemoryLedger()));

t.test('a failing lender fails the borrower with its message', async (t) => {
  const failing: QuotaLedger = {
    read: () => Promise.reject(new Error('NATS is unreachable')),
    swap: () => Promise.reject(new Error('NATS is unreachable')),
  };
  const ledger = borrow(t, failing);
  await t.rejects(ledger.read('acme', '2026-11'), { message: 'NATS is unreachable' });
  await t.rejects(ledger.swap('acme', '2026-11', 0, 1), { message: 'NATS is unreachable' });
});
