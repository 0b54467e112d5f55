// The one way collectors talk to upstreams: GET for every read, POST only to obtain an app token
// (docs/platforms.md#app-tokens); no redirects followed (a redirect is an answer to classify,
// never a hop to another host), bounded bodies, abortable.
import { Agent, request } from 'undici';
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

export function createUpstreamHttp(): ClosableUpstreamHttp {
  // No per-origin connection cap: each platform's budget already bounds its calls in flight,
  // and a cap shared by platforms on one host (the Graph API's three, every platform on the emulator)
  // would let one hanging platform hold every connection and stall the others.
  // The body cap is enforced by the connection as bytes arrive, declared length or not.
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, pipelining: 1, maxResponseSize: upstreamLimits.maxBodyBytes });
  return {
    close: () => dispatcher.close(),
    async get(url, headers, signal) {
      const response = await request(url, { method: 'GET', headers, signal, dispatcher });
      return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
    },
    async post(url, headers, body, signal) {
      const response = await request(url, { method: 'POST', headers, body, signal, dispatcher });
      return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
    },
  };
}

export function header(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
