// What the resource thread and its edge threads tell each other (src/threads/edges.ts).
import type { MessagePort } from 'node:worker_threads';
import type { CorsOrigins } from '../http/cors.js';

export interface EdgeSetup {
  index: number;
  dataDir: string;
  host: string;
  port: number;
  /** The shared account table (src/access/accountTable.ts). */
  accountTable: SharedArrayBuffer;
  /** Committed views, from the resource thread. */
  views: MessagePort;
  /** Resources wanted by searches, to the resource thread. */
  demand: MessagePort;
  logLevel: string;
  cors: CorsOrigins | undefined;
}

/** From the resource thread to an edge. */
export type ToEdge = { type: 'stop' };

/** From an edge to the resource thread. */
export type FromEdge = { type: 'listening'; port: number } | { type: 'failed'; message: string } | { type: 'stopped' };
