// One pull from a JetStream pull consumer that takes what is there now and never waits for a
// full batch, as the client library's fetch does (docs/design/cluster.md#taking-work).
import { createInbox, nanos, type NatsConnection } from '@nats-io/transport-node';

export interface Delivered {
  /** The message's payload as text. */
  text: string;
  /** The subject the server takes this delivery's acknowledgement (or nak) on. */
  ackSubject: string;
  /** 1 on the first delivery, then one more on each redelivery. */
  delivery: number;
}

export interface PullTarget {
  stream: string;
  consumer: string;
}

export interface PullLimits {
  /** The server ends the pull after this long even if it could still deliver (the `expires`). */
  expiresMs: number;
  /** The pull fails if the server has not ended it by then. */
  timeoutMs: number;
}

/** Statuses that end a `no_wait` pull normally: nothing waiting, or fewer than asked. */
const pullEnded = new Set([404, 408]);

/**
 * Takes up to `batch` messages waiting for `target` now. Rejects on any other status, or when the
 * server does not finish the pull within `limits.timeoutMs`, unless some messages had arrived: those are
 * leased to this caller already, so they are returned rather than left to expire.
 */
export function pullNow(connection: NatsConnection, target: PullTarget, batch: number, limits: PullLimits): Promise<Delivered[]> {
  return new Promise((resolve, reject) => {
    const received: Delivered[] = [];
    const finish = (failure?: Error) => {
      clearTimeout(timeout);
      subscription.unsubscribe();
      if (failure && received.length === 0) reject(failure);
      else resolve(received);
    };
    const subscription = connection.subscribe(createInbox(), {
      callback: (error, message) => {
        if (error) return finish(error);
        const delivery = message.reply === undefined ? undefined : deliveryCount(message.reply);
        if (message.reply !== undefined && delivery !== undefined) {
          received.push({ text: message.string(), ackSubject: message.reply, delivery });
          if (received.length >= batch) finish();
          return;
        }
        const code = message.headers?.code ?? 0;
        if (pullEnded.has(code)) finish();
        else
          finish(
            new Error(`JetStream refused the pull from ${target.stream}/${target.consumer}: ${code} ${message.headers?.description ?? ''}`),
          );
      },
    });
    const timeout = setTimeout(
      () => finish(new Error(`JetStream did not answer a pull from ${target.stream}/${target.consumer} within ${limits.timeoutMs} ms`)),
      limits.timeoutMs,
    );
    // nats-server 2.9 sends what it has and ends a `no_wait` pull with a 408 when the batch ended
    // short, or holds it until something arrives. `expires` also ends a pull the server would
    // keep open: with the consumer at its cap of unacknowledged deliveries, 2.9 keeps a
    // `no_wait` pull open and fills it with redeliveries.
    connection.publish(
      `$JS.API.CONSUMER.MSG.NEXT.${target.stream}.${target.consumer}`,
      JSON.stringify({ batch, no_wait: true, expires: nanos(limits.expiresMs) }),
      {
        reply: subscription.getSubject(),
      },
    );
  });
}

/**
 * The delivery count in a JetStream acknowledgement subject, or undefined when the subject is
 * not one. nats-server 2.9 sends `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer
 * seq>.<time>.<pending>`; later servers may insert a domain and an account hash after `ACK` and
 * add a token at the end.
 */
export function deliveryCount(ackSubject: string): number | undefined {
  const tokens = ackSubject.split('.');
  if (tokens[0] !== '$JS' || tokens[1] !== 'ACK') return undefined;
  const index = tokens.length === 9 ? 4 : tokens.length >= 11 ? 6 : -1;
  const count = Number(tokens[index]);
  return Number.isSafeInteger(count) && count >= 1 ? count : undefined;
}
