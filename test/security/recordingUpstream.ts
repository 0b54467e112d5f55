// A loopback proxy in front of an emulator that records every upstream path the service asks
// for: to count collections and to see exactly which URLs identifiers turned into.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { startEmulator } from '../../src/emulator/server.js';
import { forwardUpstream } from '../helpers/forwardUpstream.js';

export interface RecordingUpstream {
  url: string;
  /** Request targets as received (path and query, still encoded). */
  targets: string[];
  /** Every header line of every request, `name: value`. */
  headerLines: string[];
}

export async function recordingUpstream(t: Test): Promise<RecordingUpstream> {
  const emulator = await startEmulator(0);
  t.teardown(() => emulator.close());
  const targets: string[] = [];
  const headerLines: string[] = [];
  const server = createServer((request, response) => {
    targets.push(request.url!);
    for (let index = 0; index < request.rawHeaders.length; index += 2) {
      headerLines.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
    }
    void forwardUpstream(emulator.url, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  t.teardown(() => server.closeAllConnections());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets, headerLines };
}
