// The console's live updates (docs/dashboard.md#live-updates): server-sent events, each a fresh
// rendering of the page's live section, every `webLimits.liveEventMs`.
import { webLimits } from '../config.js';
import type { Exchange } from '../http/reply.js';
import type { HttpResponse } from '../http/uws.js';

export interface LiveStreams {
  /** The live section's markup as of now. */
  render(): string;
}

/** One SSE message: every line of the data on a `data:` line of its own. */
export function eventMessage(data: string): string {
  return `${data
    .split('\n')
    .map((line) => `data: ${line}`)
    .join('\n')}\n\n`;
}

/**
 * Ends the stream after `webLimits.liveStreamMs`; the browser's EventSource reconnects after the
 * `retry` it was given, so no stream outlives a stopping server by long and every reconnection
 * passes the session check again.
 */
export function streamEvents(res: HttpResponse, exchange: Exchange, events: LiveStreams, aborted: () => boolean): void {
  res.cork(() => {
    res.writeStatus('200 OK');
    res.writeHeader('Content-Type', 'text/event-stream');
    res.writeHeader('Cache-Control', 'no-store');
    res.writeHeader('X-Request-Id', exchange.id);
    res.write(`retry: ${webLimits.liveEventMs}\n\n`);
  });
  exchange.logAccess(exchange, '200 OK');
  const started = Date.now();
  const timer = setInterval(() => {
    if (aborted()) {
      clearInterval(timer);
      return;
    }
    const last = Date.now() - started >= webLimits.liveStreamMs;
    res.cork(() => {
      res.write(eventMessage(events.render()));
      if (last) res.end();
    });
    if (last) clearInterval(timer);
  }, webLimits.liveEventMs);
  timer.unref();
}
