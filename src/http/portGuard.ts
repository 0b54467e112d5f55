// One datapoints process per port (docs/operations.md#ports): uWebSockets.js binds with
// SO_REUSEPORT, so a second server on a port in use would bind too and take half its connections.
import { createServer, type Server } from 'node:net';

export type PortGuardResult =
  | { ok: true; release(): void }
  | { ok: false; reason: 'in-use' | 'no-permission' | 'address-unavailable' | 'unknown-host'; detail: string };

/**
 * Takes the port for this process, or says why it cannot be had. Port 0 needs no guard. Run once
 * in the process that starts the edge threads: its lock covers them all.
 */
export async function guardPort(host: string, port: number): Promise<PortGuardResult> {
  if (port === 0) return { ok: true, release: () => undefined };
  let lock: Server;
  try {
    // A Linux abstract unix socket named after the port: binding it is atomic, one process holds
    // it, and the kernel frees it when the process ends, even on SIGKILL (no stale lock file).
    lock = await listen(createServer(), { path: `\0datapoints-port-${port}` });
  } catch (error) {
    return refusal(error);
  }
  // The lock must not keep the process alive once everything else has stopped.
  lock.unref();
  try {
    // A plain listener sets no SO_REUSEPORT: it fails if any program holds the port.
    const probe = await listen(createServer(), { host, port, exclusive: true });
    await new Promise((resolve) => probe.close(resolve));
  } catch (error) {
    lock.close();
    return refusal(error);
  }
  return { ok: true, release: () => lock.close() };
}

/** The one line an operator sees for a refusal (docs/operations.md#exit-codes). */
export function describeRefusal(refusal: Extract<PortGuardResult, { ok: false }>, host: string, port: number): string {
  switch (refusal.reason) {
    case 'in-use':
      return `port ${port} is in use`;
    case 'no-permission':
      return `port ${port} needs privileges this process does not have (ports below 1024 usually do)`;
    case 'address-unavailable':
      return `cannot listen on ${host}: no such address on this machine`;
    case 'unknown-host':
      return `cannot listen on ${host}: the host name does not resolve`;
  }
}

function listen(server: Server, options: { path: string } | { host: string; port: number; exclusive: boolean }): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function refusal(error: unknown): Extract<PortGuardResult, { ok: false }> {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'EACCES' || code === 'EPERM') return { ok: false, reason: 'no-permission', detail };
  if (code === 'EADDRNOTAVAIL') return { ok: false, reason: 'address-unavailable', detail };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { ok: false, reason: 'unknown-host', detail };
  if (code === 'EADDRINUSE') return { ok: false, reason: 'in-use', detail };
  throw error;
}
