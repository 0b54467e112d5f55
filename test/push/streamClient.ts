// A WebSocket client of the resource stream for tests: opens with a token or a ticket, queues
// every server message, and waits for the next one that matches.
import type { IncomingMessage } from 'node:http';
import type { Test } from 'tap';
import WebSocket from 'ws';

export const streamPath = '/api/v1/resources/stream';
export const ticketsPath = '/api/v1/resources/stream/tickets';

export interface Closed {
  code: number;
  reason: string;
}

export interface Refusal {
  status: number;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export class StreamClient {
  private readonly inbox: any[] = [];
  private readonly waiters: Array<() => void> = [];
  readonly closed: Promise<Closed>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      this.inbox.push(isBinary ? data : JSON.parse(data.toString()));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Opens a stream; `auth` is a bearer token, or `{ ticket }`. Rejects with the HTTP refusal. */
  static open(
    t: Test,
    baseUrl: string,
    auth?: string | { ticket: string; protocols?: string[] },
    options: { autoPong?: boolean } = {},
  ): Promise<StreamClient> {
    const url = baseUrl.replace(/^http/, 'ws') + streamPath;
    const socket =
      typeof auth === 'object'
        ? new WebSocket(url, auth.protocols ?? ['datapoints.v1', `ticket.${auth.ticket}`], options)
        : new WebSocket(url, [], auth === undefined ? options : { ...options, headers: { authorization: `Bearer ${auth}` } });
    const client = new StreamClient(socket);
    t.teardown(() => socket.terminate());
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request: unknown, response: IncomingMessage) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => reject(refusal(response, text)));
      });
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /**
   * Sends `message` in rounds of 200 until the server closes the connection (at most 200
   * rounds). A round starts once the last one's bytes are written to the socket: the flood goes
   * at the pace the connection takes it, whatever the machine's load, not at a clock's.
   */
  async floodUntilClosed(message: string): Promise<void> {
    let closed = false;
    void this.closed.then(() => (closed = true));
    for (let round = 0; round < 200 && !closed; round++) {
      for (let index = 1; index < 200; index++) this.socket.send(message);
      await new Promise<void>((resolve) => this.socket.send(message, {}, () => resolve()));
    }
  }

  /** The next message not yet taken that `matches`, waiting up to `timeoutMs` for it. */
  async next(matches: (message: any) => boolean = () => true, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.inbox.findIndex(matches);
      if (index >= 0) return this.inbox.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message in ${timeoutMs} ms; inbox: ${JSON.stringify(this.inbox).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages received and not taken. */
  get pending(): readonly any[] {
    return this.inbox;
  }
}

export class RefusedUpgrade extends Error {
  constructor(readonly refusal: Refusal) {
    super(`upgrade refused with ${refusal.status}`);
  }
}

function refusal(response: IncomingMessage, text: string): RefusedUpgrade {
  return new RefusedUpgrade({
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  });
}

/** The HTTP answer to an upgrade the server refuses. */
export async function refusedUpgrade(t: Test, baseUrl: string, auth?: string | { ticket: string; protocols?: string[] }): Promise<Refusal> {
  try {
    await StreamClient.open(t, baseUrl, auth);
  } catch (error) {
    if (error instanceof RefusedUpgrade) return error.refusal;
    throw error;
  }
  throw new Error('the upgrade was accepted');
}

export interface Reference {
  platform: string;
  type: string;
  identifier: string;
}

/** Matches an update of `reference` (as sent), optionally of one status. */
export const updateOf =
  (reference: Reference, status?: string) =>
  (message: any): boolean => {
    if (message.type !== 'update') return false;
    const [entry] = message.data;
    return (
      entry.platform === reference.platform &&
      entry.type === reference.type &&
      entry.identifier === reference.identifier &&
      (status === undefined || entry.status === status)
    );
  };
