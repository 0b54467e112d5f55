// What every OutcomeSink must do (docs/architecture.md#the-seams), run against each
// implementation.
import type { Test } from 'tap';
import type { OutcomeSink } from './ports.js';
import { failed, found, notFound } from '../../model.js';

export interface SinkHarness {
  sink: OutcomeSink;
  /** Makes `key` known with its collection asked for (its lease running). */
  track(key: string): Promise<void>;
  status(key: string): string | undefined;
  /** When the due index next offers `key`. */
  dueAt(key: string): number | undefined;
  now(): number;
  /** The next write to storage fails. */
  failNextWrite(): void;
}

const key = 'github/account/octocat';
const datapoints = { metrics: { followers: { value: 7, semantic: 'followers' as const } } };

export function outcomeSinkContract(t: Test, name: string, open: (t: Test) => Promise<SinkHarness>): void {
  t.test(`${name} - a delivered outcome is recorded when deliver resolves`, async (t) => {
    const harness = await open(t);
    await harness.track(key);
    await harness.sink.deliver(key, found(datapoints));
    t.equal(harness.status(key), 'available');
    await harness.sink.deliver(key, notFound);
    t.equal(harness.status(key), 'not_found');
    await harness.sink.deliver(key, failed('HTTP 503'));
    t.equal(harness.status(key), 'not_found', 'a failure proves nothing about existence');
  });

  t.test(`${name} - an outcome for an unknown resource is dropped`, async (t) => {
    const harness = await open(t);
    await harness.sink.deliver('github/account/nobody', found(datapoints));
    t.equal(harness.status('github/account/nobody'), undefined);
  });

  t.test(`${name} - deliver rejects when the outcome cannot be recorded, and the next one is`, async (t) => {
    const harness = await open(t);
    await harness.track(key);
    harness.failNextWrite();
    await t.rejects(harness.sink.deliver(key, found(datapoints)));
    t.equal(harness.status(key), 'pending', 'nothing half-written');
    await harness.sink.deliver(key, found(datapoints));
    t.equal(harness.status(key), 'available');
  });

  t.test(`${name} - an abandoned collection makes its resource due at once`, async (t) => {
    const harness = await open(t);
    await harness.track(key);
    t.ok(harness.dueAt(key)! > harness.now(), 'while its collection is out, the lease keeps it from being due');
    await harness.sink.abandoned(key);
    t.equal(harness.dueAt(key), harness.now());
    t.equal(harness.status(key), 'pending', 'status unchanged');
  });
}
