// The one way collectors talk to upstreams: GET for every read, POST only to obtain an app token
// (docs/platforms.md#app-tokens); no redirects followed (a redirect is an answer to classify,
// never a hop to another host), bounded bodies, abortable.
import { Agent, buildConnector, request } from 'undici';
import { upstreamLimits } from '../config.js';

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface UpstreamHttp {
  get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<UpstreamResponse>;
  /** A form POST to a platform's token endpoint (docs/platforms.md#app-tokens); never a read. */
  post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<UpstreamResponse>;
}

export interface ClosableUpstreamHttp extends UpstreamHttp {
  /** Closes pooled keep-alive connections, so that a stopping process is not held open. */
  close(): Promise<void>;
}

/** Opens an upstream connection: undici's connector shape, so that no other module imports undici. */
export type Connector = buildConnector.connector;

/** undici's own TLS connector: `timeout` to connect, `ca` to trust instead of the system's (tests only). */
export function tlsConnector(options: { timeout: number; ca?: string | undefined }): Connector {
  return buildConnector({ timeout: options.timeout, ...(options.ca && { ca: options.ca }) });
}

export interface UpstreamHttpOptions {
  /** Opens connections; undici's own when absent. The host guard's connector checks each address first (docs/host-safety.md). */
  connect?: Connector;
  /** The body cap; upstreamLimits.maxBodyBytes when absent. */
  maxBodyBytes?: number;
  /** Headers and body must have arrived within this; when absent only the caller's signal ends a call. */
  answerTimeoutMs?: number;
}

export function createUpstreamHttp(options: UpstreamHttpOptions = {}): ClosableUpstreamHttp {
  // No per-origin connection cap: each platform's budget already bounds its calls in flight,
  // and a cap shared by platforms on one host (the Graph API's three, every platform on the emulator)
  // would let one hanging platform hold every connection and stall the others.
  // The body cap is enforced by the connection as bytes arrive, declared length or not.
  const dispatcher = new Agent({
    keepAliveTimeout: 30_000,
    pipelining: 1,
    maxResponseSize: options.maxBodyBytes ?? upstreamLimits.maxBodyBytes,
    ...(options.connect && { connect: options.connect }),
  });
  const { answerTimeoutMs } = options;
  async function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal) {
    const deadline = answerTimeoutMs === undefined ? undefined : AbortSignal.timeout(answerTimeoutMs);
    try {
      const response = await request(url, {
        method,
        headers,
        body,
        signal: deadline ? AbortSignal.any([signal, deadline]) : signal,
        dispatcher,
      });
      return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
    } catch (error) {
      if (deadline?.aborted && !signal.aborted) throw new Error(`no answer within ${answerTimeoutMs} ms`);
      throw error;
    }
  }
  return {
    close: () => dispatcher.close(),
    get: (url, headers, signal) => call('GET', url, headers, undefined, signal),
    post: (url, headers, body, signal) => call('POST', url, headers, body, signal),
  };
}

export function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
