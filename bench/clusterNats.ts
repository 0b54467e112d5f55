// The nats-server of one scenario of the cluster benchmark (bench/README.md#cluster): on the
// load core, on a free port and a fresh store of its own, removed when it stops.
import { rmSync } from 'node:fs';
import { scratchDir } from './datasets.js';
import { freePort, spawnNatsServer } from './natsServer.js';
import { loadCore, stopProcess } from './processes.js';

export interface RunningNats {
  url: string;
  /** Stops the server and removes its store. */
  stop(): Promise<void>;
}

export async function startNats(label: string): Promise<RunningNats> {
  const storeDir = scratchDir(`nats-${label}`);
  const port = await freePort();
  const child = await spawnNatsServer(port, storeDir, [loadCore]);
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      await stopProcess(child);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
