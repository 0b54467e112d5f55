// One `info` line per answered request (docs/http.md#access-log): method, path, status,
// duration, request id and the account once the token named one. Never the token itself,
// nor any other header or the body.
import type { Logger } from '../log.js';

export interface AccessEntry {
  readonly id: string;
  readonly method: string;
  readonly path: string;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
  account: string | undefined;
}

export type AccessLog = (entry: AccessEntry, status: string) => void;

export function createAccessLog(log: Logger, now: () => number = () => performance.now()): AccessLog {
  return (entry, status) => {
    // pino's disabled levels are no-ops, but the fields would still be gathered.
    if (!log.isLevelEnabled('info')) return;
    log.info(
      {
        method: entry.method,
        path: entry.path,
        status: Number.parseInt(status, 10),
        ms: Math.round((now() - entry.startedAt) * 100) / 100,
        requestId: entry.id,
        account: entry.account,
      },
      'request',
    );
  };
}
