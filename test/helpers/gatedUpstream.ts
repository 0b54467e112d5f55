// A loopback upstream in front of an in-process emulator that can hold its calls: a test sees
// each call arrive (an event, not a guess at timing) and chooses when it is answered.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { startEmulator } from '../../src/emulator/server.js';
import { forwardUpstream } from './forwardUpstream.js';

export interface GatedUpstream {
  url: string;
  /** Resolves once `count` calls have arrived in all (held or not). */
  arrived(count: number): Promise<void>;
  /** Answers the held calls and every later one. */
  open(): void;
}

export async function gatedUpstream(t: Test, { holding }: { holding: boolean }): Promise<GatedUpstream> {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  let held: Array<[IncomingMessage, ServerResponse]> | undefined = holding ? [] : undefined;
  let calls = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const forward = (request: IncomingMessage, response: ServerResponse) => forwardUpstream(emulator.url, request, response);
  const server = createServer((request, response) => {
    calls += 1;
    for (const waiter of waiting.filter(({ count }) => count <= calls)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (held) held.push([request, response]);
    else void forward(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived: (count) => (calls >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve }))),
    open() {
      const released = held ?? [];
      held = undefined;
      for (const [request, response] of released) void forward(request, response);
    },
  };
}
