// The upstream client for hosts that callers name (docs/host-safety.md): the project's one
// client (src/platforms/http.ts: no redirect followed, bodies capped), with every
// URL checked before a packet is sent and every connection made through guardedConnector.
import { upstreamLimits } from '../../config.js';
import { type ClosableUpstreamHttp, type Connector, createUpstreamHttp, tlsConnector } from '../http.js';
import { type HostAllowList, nothingAllowed } from './allowList.js';
import { guardedConnector, type Resolver, systemResolver } from './guardedConnector.js';
import { checkedTarget } from './hostName.js';

export interface GuardedHttpOptions {
  /** The operator's exceptions (`--allow-private-hosts`); none when absent. */
  allowList?: HostAllowList;
  /** The system resolver when absent; tests give their own. */
  resolve?: Resolver;
  /** Opens a connection to a checked address: undici's TLS connector when absent; tests count calls. */
  dial?: Connector;
  /** Tests only: a CA to trust instead of the system's, for a loopback server's own certificate. */
  trustedCa?: string;
  /** upstreamLimits' caps when absent; tests make them small. */
  maxBodyBytes?: number;
  answerTimeoutMs?: number;
}

export function createGuardedHttp(options: GuardedHttpOptions = {}): ClosableUpstreamHttp {
  const answerTimeoutMs = options.answerTimeoutMs ?? upstreamLimits.maxAnswerMs;
  const dial = options.dial ?? tlsConnector({ timeout: answerTimeoutMs, ca: options.trustedCa });
  const http = createUpstreamHttp({
    connect: guardedConnector({ resolve: options.resolve ?? systemResolver, allowList: options.allowList ?? nothingAllowed, dial }),
    maxBodyBytes: options.maxBodyBytes ?? upstreamLimits.maxBodyBytes,
    answerTimeoutMs,
  });
  return {
    close: () => http.close(),
    async get(url, headers, signal) {
      checkedTarget(url);
      return http.get(url, headers, signal);
    },
    async post(url, headers, body, signal) {
      checkedTarget(url);
      return http.post(url, headers, body, signal);
    },
  };
}
