// `npm run bench:slow-consumers`: what a resource-stream client that stops reading costs the server,
// and how long until it is cut (docs/push.md#slow-consumers; the method: bench/README.md#slow-consumers).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { freshDataSet } from './datasets.js';
import { memoryOf } from './memory.js';
import { log, sleep } from './log.js';
import { loadCore, startServer } from './processes.js';
import { benchIdentifier } from './seed.js';
import { openClient } from './streamClients.js';

const resourceCount = 1_000;
const slowCount = Number(process.env.SLOW_CLIENTS ?? 8);
/** A subscribe message names at most 10 resources, as a search does (docs/push.md). */
const perMessage = 10;
const sampleMs = 250;
const controlSeconds = 30;
/** A slow connection not cut by then is reported as such: the bound is not what the docs say. */
const giveUpSeconds = 120;

const references = Array.from({ length: resourceCount }, (_, index) => ({
  platform: 'github',
  type: 'account',
  identifier: benchIdentifier(index),
}));
const subscribeMessages = Array.from({ length: resourceCount / perMessage }, (_, index) =>
  JSON.stringify({ type: 'subscribe', resources: references.slice(index * perMessage, (index + 1) * perMessage) }),
);

/** A masked text frame, as a client must send it (RFC 6455 section 5.3). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length =
    payload.length < 126 ? Buffer.of(0x80 | payload.length) : Buffer.of(0x80 | 126, payload.length >> 8, payload.length & 0xff);
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, index) => byte ^ mask[index % 4]!));
  return Buffer.concat([Buffer.of(0x81), length, mask, masked]);
}

interface SlowClient {
  socket: Socket;
  localPort: number;
  received: Buffer[];
}

/** Opens the stream with a bearer token, subscribes to every resource, and stops reading. */
async function openSlowClient(port: number, token: string): Promise<SlowClient> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Buffer[] = [];
  let text = '';
  const answered = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      text += chunk.toString('latin1');
      if (text.split('"type":"subscribed"').length - 1 === subscribeMessages.length) resolve();
    });
    socket.once('close', () => reject(new Error(`closed before subscribing: ${JSON.stringify(text.slice(0, 300))}`)));
  });
  socket.write(
    'GET /api/v1/resources/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  // Frames sent before the 101 arrives are not read as frames: wait for it.
  await new Promise<void>((resolve) => {
    const upgraded = () => (text.includes('\r\n\r\n') ? resolve() : socket.once('data', upgraded));
    socket.once('data', upgraded);
  });
  for (const message of subscribeMessages) socket.write(textFrame(message));
  await answered;
  socket.pause();
  socket.removeAllListeners('data');
  return { socket, localPort: socket.localPort!, received };
}

interface Queues {
  established: boolean;
  /** Bytes the server's kernel holds to send, and the client's kernel holds unread. */
  serverSend: number;
  clientReceive: number;
}

/** Each slow client's connection as `ss` shows it now, by the client's port. */
function queues(serverPort: number, clientPorts: ReadonlySet<number>): Map<number, Queues> {
  const lines = execFileSync('ss', ['-tanH'], { encoding: 'utf8' }).split('\n');
  const found = new Map<number, Queues>();
  const entry = (port: number) => {
    const known = found.get(port);
    if (known) return known;
    const fresh = { established: false, serverSend: 0, clientReceive: 0 };
    found.set(port, fresh);
    return fresh;
  };
  for (const line of lines) {
    const [state, recvQ, sendQ, local, peer] = line.trim().split(/\s+/);
    if (!state || !local || !peer) continue;
    const localPort = Number(local.slice(local.lastIndexOf(':') + 1));
    const peerPort = Number(peer.slice(peer.lastIndexOf(':') + 1));
    if (localPort === serverPort && clientPorts.has(peerPort)) {
      const server = entry(peerPort);
      server.serverSend = Number(sendQ);
      server.established = state === 'ESTAB';
    } else if (peerPort === serverPort && clientPorts.has(localPort)) entry(localPort).clientReceive = Number(recvQ);
  }
  return found;
}

/** The code of the close frame (opcode 0x8, unmasked) that ends what a client was sent, if it ends with one. */
function closeCode(bytes: Buffer): number | undefined {
  for (let at = bytes.length - 4; at >= 0; at--) {
    if (bytes[at] === 0x88 && at + 2 + bytes[at + 1]! === bytes.length) return bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

/** How far the process's anonymous memory rose above where it was, over `seconds`. */
async function peakGrowth(pid: number, seconds: number): Promise<number> {
  const start = memoryOf(pid).anonMiB;
  let peak = start;
  for (const until = performance.now() + seconds * 1000; performance.now() < until; ) {
    await sleep(sampleMs);
    peak = Math.max(peak, memoryOf(pid).anonMiB);
  }
  return peak - start;
}

async function main(): Promise<void> {
  execFileSync('taskset', ['-pc', String(loadCore), String(process.pid)], { stdio: 'ignore' });
  const setupMs = 20_000;
  const data = await freshDataSet('slow-consumers', {
    count: resourceCount,
    due: { from: 0, at: Date.now() + setupMs, spreadMs: 1_000 },
  });
  const server = await startServer({ data: data.dir, threads: 1, flags: ['--fresh-for', '1s'] });
  const serverPort = Number(new URL(server.url).port);
  try {
    const reader = await openClient(server.url, data.token, 0);
    let updates = 0;
    reader.socket.addEventListener('message', (event) => {
      if (String(event.data).startsWith('{"type":"update"')) updates++;
    });
    for (const message of subscribeMessages) reader.socket.send(message);
    log('slow consumers: waiting for the refreshes, then a control window with only the reading client');
    await sleep(setupMs + 2_000);
    const control = await peakGrowth(server.pid, controlSeconds);
    const slow = await Promise.all(Array.from({ length: slowCount }, () => openSlowClient(serverPort, data.token)));
    const ports = new Set(slow.map((client) => client.localPort));
    const memoryBefore = memoryOf(server.pid).anonMiB;
    log(`  ${slowCount} clients subscribed to ${resourceCount} resources each and stopped reading`);

    const started = performance.now();
    const updatesAtStart = updates;
    const cutAfter = new Map<number, { seconds: number; unread: number }>();
    const peakUnread = new Map<number, number>();
    let peakMemory = memoryBefore;
    while (cutAfter.size < slowCount && performance.now() - started < giveUpSeconds * 1000) {
      await sleep(sampleMs);
      peakMemory = Math.max(peakMemory, memoryOf(server.pid).anonMiB);
      for (const [port, queued] of queues(serverPort, ports)) {
        const unread = queued.serverSend + queued.clientReceive;
        if (queued.established) peakUnread.set(port, Math.max(peakUnread.get(port) ?? 0, unread));
        else if (!cutAfter.has(port))
          cutAfter.set(port, { seconds: (performance.now() - started) / 1000, unread: peakUnread.get(port) ?? 0 });
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const changesPerSecond = (updates - updatesAtStart) / seconds;
    for (const client of slow) client.socket.resume().on('data', (chunk: Buffer) => client.received.push(chunk));
    await sleep(2_000);

    const out = (line: string) => process.stdout.write(`${line}\n`);
    out(`updates to the reading client: ${changesPerSecond.toFixed(0)}/s while the slow ones filled`);
    for (const client of slow) {
      const cut = cutAfter.get(client.localPort);
      const all = Buffer.concat(client.received);
      const code = closeCode(all);
      out(
        cut
          ? `slow client :${client.localPort}: cut after ${cut.seconds.toFixed(1)} s, ${(cut.unread / 1024).toFixed(0)} KiB in kernel queues just before, close code ${code ?? 'none read'}`
          : `slow client :${client.localPort}: NOT cut within ${giveUpSeconds} s`,
      );
    }
    const growth = peakMemory - memoryBefore;
    out(
      `server anonymous memory: grew ${growth.toFixed(1)} MiB while the slow clients filled (${memoryBefore.toFixed(1)} -> peak ` +
        `${peakMemory.toFixed(1)}), ${control.toFixed(1)} MiB in ${controlSeconds} s without them: ` +
        `${(((growth - control) * 1024) / slowCount).toFixed(0)} KiB per slow connection (heap noise included)`,
    );
    reader.socket.close();
    for (const client of slow) client.socket.destroy();
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`slow consumers bench failed: ${String(error instanceof Error ? error.stack : error)}\n`);
  process.exit(1);
});
