// One open stream (docs/push.md): who it belongs to, what it follows, and the sends that keep
// its unread output bounded.
import type { AccountRecord } from '../store/accountStore.js';
import type { RequestedResource } from '../api/validation.js';
import { limits } from '../config.js';
import type { WebSocket } from 'uWebSockets.js';
import { closeCodes } from './messages.js';

type Close = (typeof closeCodes)[keyof typeof closeCodes];

/** uWS copies the own fields of a socket's user data into a plain object: the connection rides in one. */
export interface StreamSocketData {
  connection: StreamConnection;
}

export class StreamConnection {
  /** Set when uWS opens the socket; undefined again once it closed. */
  socket: WebSocket<StreamSocketData> | undefined;
  /** What it follows, by topic (src/push/subscriptionRegistry.ts). */
  readonly subscriptions = new Map<string, RequestedResource>();
  /** Messages that arrived while a subscribe waited for its quota reservation, in order. */
  waiting: string[] | undefined;
  /** The bytes of `waiting` (as UTF-16 length, which bounds them closely enough). */
  waitingSize = 0;

  constructor(
    readonly account: AccountRecord,
    /** The digest of the token it was opened with, checked again for revocation. */
    readonly digest: string,
    /** Its place in the per-account connection counts (src/push/connectionCounts.ts). */
    readonly countSlot: number,
  ) {}

  /** A subscribe waiting for its count is not counted once its connection closed (docs/push.md#counting). */
  wanted(): boolean {
    return this.socket !== undefined;
  }

  /** Sends a text message, and closes a connection whose client leaves too much unread. */
  send(message: string): void {
    const socket = this.socket;
    if (!socket) return;
    socket.send(message, false);
    this.checkBacklog();
  }

  /** docs/push.md#slow-consumers. */
  checkBacklog(): void {
    if (this.socket && this.socket.getBufferedAmount() > limits.push.maxBufferedBytes) this.end(closeCodes.slowConsumer);
  }

  end(close: Close): void {
    const socket = this.socket;
    if (!socket) return;
    this.socket = undefined;
    socket.end(close.code, close.reason);
  }
}
