// One TCP connection to a server, for tests that write exact bytes (docs/http.md#framing) and read
// the answers as they come: a client library would fix the very framing these tests get wrong.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  /** Everything received and not yet taken as an answer (latin1, byte for byte). */
  private buffered = '';
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly socket: Socket;
  /** Resolves once the server closed the connection (or it broke). */
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk) => {
      this.buffered += chunk.toString('latin1');
      this.wake?.();
    });
    // A reset after a close is still a close: the answers already read stand.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      socket.on('close', () => {
        this.ended = true;
        this.wake?.();
        resolve();
      }),
    );
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: string | Buffer): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  /**
   * The next whole answer, or undefined when the connection closes before one comes. `bodiless`:
   * the answer to a HEAD, whose Content-Length describes a body that is not sent.
   */
  async next(options: { bodiless?: boolean } = {}): Promise<RawAnswer | undefined> {
    for (;;) {
      const answer = this.take(options.bodiless ?? false);
      if (answer) return answer;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  /** What arrived beyond the answers taken (after `closed`: all the server sent). */
  get rest(): string {
    return this.buffered;
  }

  destroy(): void {
    this.socket.destroy();
  }

  private take(bodiless: boolean): RawAnswer | undefined {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine = '', ...lines] = this.buffered.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(statusLine.split(' ')[1]);
    const length = bodiless || status < 200 ? 0 : Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    if (this.buffered.length < bodyStart + length) return undefined;
    const body = this.buffered.slice(bodyStart, bodyStart + length);
    this.buffered = this.buffered.slice(bodyStart + length);
    return { status, headers, body };
  }
}
