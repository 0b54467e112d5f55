// The part of the `ws` client the stream tests use (the package ships no types of its own).
declare module 'ws' {
  import { EventEmitter } from 'node:events';
  export interface ClientOptions {
    headers?: Record<string, string>;
    maxPayload?: number;
    /** Whether a ping is answered with a pong at once (ws 8.16+); true by default. */
    autoPong?: boolean;
  }
  export default class WebSocket extends EventEmitter {
    constructor(address: string, protocols?: string | string[], options?: ClientOptions);
    readonly protocol: string;
    readonly readyState: number;
    send(data: string | Buffer, options?: { binary?: boolean }, callback?: (error?: Error) => void): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    /** Stops reading from the socket (ws 8.10+). */
    pause(): void;
    resume(): void;
  }
}
