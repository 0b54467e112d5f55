// A ledger of the resource thread (the quota's; in a cluster also the rate windows'), lent to an edge thread over a MessagePort
// (docs/cluster.md, "Edge threads in a cluster"). A NATS connection cannot cross threads; rather
// than one connection per edge, edges send their few ledger calls (one per reserved block, not
// one per request) to the resource thread, which makes them on the node's one connection.
import type { MessagePort } from 'node:worker_threads';
import type { LedgerEntry, QuotaLedger, SwapResult } from '../store/quotaLedger.js';

type LedgerCall =
  | { id: number; call: 'read'; account: string; period: string }
  | { id: number; call: 'swap'; account: string; period: string; revision: number; granted: number };

type LedgerAnswer = { id: number; read: LedgerEntry } | { id: number; swap: SwapResult } | { id: number; failed: string };

/** The resource thread's side: answers every call on `port` with `ledger`. */
export function lendLedger(port: MessagePort, ledger: QuotaLedger): void {
  port.on('message', (call: LedgerCall) => {
    const answered =
      call.call === 'read'
        ? ledger.read(call.account, call.period).then((read): LedgerAnswer => ({ id: call.id, read }))
        : ledger.swap(call.account, call.period, call.revision, call.granted).then((swap): LedgerAnswer => ({ id: call.id, swap }));
    void answered
      .catch((error: unknown): LedgerAnswer => ({ id: call.id, failed: error instanceof Error ? error.message : String(error) }))
      .then((answer) => port.postMessage(answer));
  });
}

/** The edge's side: a QuotaLedger whose calls the resource thread makes. */
export class PortLedger implements QuotaLedger {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve(answer: LedgerAnswer): void }>();

  constructor(private readonly port: MessagePort) {
    port.on('message', (answer: LedgerAnswer) => {
      this.waiting.get(answer.id)?.resolve(answer);
      this.waiting.delete(answer.id);
    });
    // Only while calls are out: an idle port must not keep the thread alive.
    port.unref();
  }

  async read(account: string, period: string): Promise<LedgerEntry> {
    const answer = await this.call({ id: this.nextId++, call: 'read', account, period });
    if ('read' in answer) return answer.read;
    throw new Error(failure(answer));
  }

  async swap(account: string, period: string, revision: number, granted: number): Promise<SwapResult> {
    const answer = await this.call({ id: this.nextId++, call: 'swap', account, period, revision, granted });
    if ('swap' in answer) return answer.swap;
    throw new Error(failure(answer));
  }

  private call(call: LedgerCall): Promise<LedgerAnswer> {
    return new Promise((resolve) => {
      if (this.waiting.size === 0) this.port.ref();
      this.waiting.set(call.id, {
        resolve: (answer) => {
          if (this.waiting.size === 1) this.port.unref();
          resolve(answer);
        },
      });
      this.port.postMessage(call);
    });
  }
}

function failure(answer: LedgerAnswer): string {
  return 'failed' in answer ? answer.failed : 'the ledger answered another call';
}
