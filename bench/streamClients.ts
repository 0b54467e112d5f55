// Clients of the resource stream (docs/push.md) in the benchmark process: open connections,
// send each one message and await its answer, and the percentiles of what they record.
import { WebSocket } from 'undici';

/** Connections opened (and messages sent) at once. */
export const openInParallel = 200;

export interface Client {
  socket: WebSocket;
  index: number;
}

/** Resolves with the next message of `socket` (JSON-parsed). */
function nextMessage(socket: WebSocket): Promise<{ type: string; data?: unknown[] }> {
  return new Promise((resolve, reject) => {
    socket.addEventListener('message', (event) => resolve(JSON.parse(String(event.data))), { once: true });
    socket.addEventListener('close', () => reject(new Error('closed')), { once: true });
  });
}

export async function openClient(url: string, token: string, index: number): Promise<Client> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1/resources/stream`, { headers: { authorization: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`connection ${index} failed`)), { once: true });
  });
  return { socket, index };
}

/** Sends one message per client, `parallel` at a time, each awaiting its answer. */
export async function everyClient(clients: readonly Client[], message: (client: Client) => unknown, expect: string): Promise<void> {
  for (let start = 0; start < clients.length; start += openInParallel) {
    await Promise.all(
      clients.slice(start, start + openInParallel).map(async (client) => {
        const answer = nextMessage(client.socket);
        client.socket.send(JSON.stringify(message(client)));
        const { type } = await answer;
        if (type !== expect) throw new Error(`client ${client.index}: ${type}, not ${expect}`);
      }),
    );
  }
}

/** The value at `fraction` (0-1) of ascending `sorted` values. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}
