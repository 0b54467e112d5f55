// Serves the metrics on their own listen address (docs/operations-endpoints.md#why-metrics-have-their-own-address): the API port faces clients, this one only the operator's scraper.
import type { Logger } from '../log.js';
import uWS, { type HttpResponse, type TemplatedApp, type us_listen_socket } from './uws.js';
import type { MetricsAddress } from '../metrics/metricsAddress.js';
import type { PrometheusMetrics } from '../metrics/prometheusMetrics.js';

export const metricsPath = '/metrics';

export interface MetricsListener {
  port: number;
  close(): void;
}

function writeText(res: HttpResponse, status: string, contentType: string, body: string): void {
  res.cork(() => {
    res.writeStatus(status);
    res.writeHeader('Content-Type', contentType);
    res.end(body);
  });
}

/** GET /metrics on `app`, in Prometheus' text format; any other request is a 404. */
export function registerMetricsRoute(app: TemplatedApp, metrics: PrometheusMetrics, log: Logger): void {
  app.get(metricsPath, (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    metrics.exposition().then(
      (text) => {
        if (!aborted) writeText(res, '200 OK', metrics.contentType, text);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics not gathered');
        if (!aborted)
          writeText(res, '500 Internal Server Error', 'text/plain; charset=utf-8', 'metrics not gathered; see the server log\n');
      },
    );
  });
  app.any('/*', (res, req) => {
    writeText(
      res,
      '404 Not Found',
      'text/plain; charset=utf-8',
      `No such endpoint: ${req.getMethod().toUpperCase()} ${req.getUrl()}; metrics are at GET ${metricsPath}\n`,
    );
  });
}

export function startMetricsListener(address: MetricsAddress, metrics: PrometheusMetrics, log: Logger): Promise<MetricsListener> {
  const app = uWS.App();
  registerMetricsRoute(app, metrics, log);
  return new Promise((resolve, reject) => {
    app.listen(address.host, address.port, (socket: us_listen_socket | false) => {
      if (!socket) return reject(new Error(`cannot listen for metrics on ${address.host}:${address.port}`));
      resolve({
        port: uWS.us_socket_local_port(socket),
        close: () => uWS.us_listen_socket_close(socket),
      });
    });
  });
}
