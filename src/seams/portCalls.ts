// Calls of an object on the resource thread, made from an edge thread over a MessagePort
// (docs/cluster.md#edge-threads-in-a-cluster): a NATS connection cannot cross threads.
import type { MessagePort } from 'node:worker_threads';

type Call = { id: number; method: string; args: unknown[] };
type Answer = { id: number; value: unknown } | { id: number; failed: string; name: string };

/** The methods of `T` named in `K`, each resolving what it resolves. */
export type Borrowed<T, K extends keyof T> = Pick<T, K>;

/**
 * The lender's side: answers every call on `port` with the method of `target` it names (among
 * `methods`). Arguments and answers are structured-cloned; a failure comes back as an error with
 * the lender's message and name.
 */
export function lendCalls<T, K extends keyof T & string>(port: MessagePort, target: T, methods: readonly K[]): void {
  port.on('message', (call: Call) => {
    void Promise.resolve()
      .then(() => {
        if (!(methods as readonly string[]).includes(call.method)) throw new Error(`no call ${call.method} is lent`);
        return (target[call.method as K] as (...args: unknown[]) => Promise<unknown>).apply(target, call.args);
      })
      .then(
        (value): Answer => ({ id: call.id, value }),
        (error: unknown): Answer => ({
          id: call.id,
          failed: error instanceof Error ? error.message : String(error),
          name: error instanceof Error ? error.name : 'Error',
        }),
      )
      .then((answer) => port.postMessage(answer));
  });
}

/** The borrower's side: an object whose `methods` the lender on the other end of `port` runs. */
export function borrowCalls<T, K extends keyof T & string>(port: MessagePort, methods: readonly K[]): Borrowed<T, K> {
  let nextId = 0;
  const waiting = new Map<number, (answer: Answer) => void>();
  port.on('message', (answer: Answer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  // Only while calls are out: an idle port must not keep the thread alive.
  port.unref();
  const call = (method: string, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      if (waiting.size === 0) port.ref();
      waiting.set(id, (answer) => {
        if (waiting.size === 1) port.unref();
        if ('failed' in answer) reject(Object.assign(new Error(answer.failed), { name: answer.name }));
        else resolve(answer.value);
      });
      port.postMessage({ id, method, args } satisfies Call);
    });
  return Object.fromEntries(methods.map((method) => [method, (...args: unknown[]) => call(method, args)])) as unknown as Borrowed<T, K>;
}
