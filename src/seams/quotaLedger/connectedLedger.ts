// A quota ledger that answers at once while NATS is unreachable (docs/cluster.md#nats-outage). The client keeps a request sent while it is disconnected until its timeout (5 s), so
// a reservation would hold its request that long only to fail: while the connection is down a
// call is refused at once, and a call under way when it goes down fails at that moment.
import type { LedgerEntry, QuotaLedger, SwapResult } from './quotaLedger.js';

export class NatsDisconnectedError extends Error {
  constructor() {
    super('NATS is not connected');
  }
}

/** Whether the node's connection is up, and a way to fail what waits on it when it goes down. */
export class ConnectionGate {
  private down: { promise: Promise<never>; reject: (error: Error) => void } | undefined;
  private up = true;

  get connected(): boolean {
    return this.up;
  }

  /** The connection was lost: calls under way fail now, new ones until `reconnected`. */
  disconnected(): void {
    this.up = false;
    this.down?.reject(new NatsDisconnectedError());
    this.down = undefined;
  }

  reconnected(): void {
    this.up = true;
  }

  /** Runs `call` while connected; rejects with NatsDisconnectedError at once, or when the connection goes down first. */
  run<T>(call: () => Promise<T>): Promise<T> {
    if (!this.up) return Promise.reject(new NatsDisconnectedError());
    if (!this.down) {
      let reject: (error: Error) => void = () => undefined;
      const promise = new Promise<never>((_, rejectWith) => (reject = rejectWith));
      promise.catch(() => undefined);
      this.down = { promise, reject };
    }
    return Promise.race([call(), this.down.promise]);
  }
}

/** Follows `statuses` (a NATS connection's `status()`) into `gate`. */
export async function followConnection(statuses: AsyncIterable<{ type: string }>, gate: ConnectionGate): Promise<void> {
  for await (const status of statuses) {
    if (status.type === 'disconnect') gate.disconnected();
    else if (status.type === 'reconnect') gate.reconnected();
  }
}

export class ConnectedLedger implements QuotaLedger {
  constructor(
    private readonly ledger: QuotaLedger,
    private readonly gate: ConnectionGate,
  ) {}

  read(account: string, period: string): Promise<LedgerEntry> {
    return this.gate.run(() => this.ledger.read(account, period));
  }

  swap(account: string, period: string, revision: number, granted: number): Promise<SwapResult> {
    return this.gate.run(() => this.ledger.swap(account, period, revision, granted));
  }
}
