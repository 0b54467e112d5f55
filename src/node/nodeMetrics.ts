// Prometheus metrics of the node (docs/architecture.md#the-assemblies), only where `--metrics`
// asks for them: the gauges read the core and the platform board at scrape time.
import type { Logger } from '../log.js';
import type { MetricsAddress } from '../metrics/metricsAddress.js';
import { startMetricsListener } from '../http/metricsListener.js';
import { PrometheusMetrics } from '../metrics/prometheusMetrics.js';
import type { NodeCore } from './nodeCore.js';
import type { Upstreams } from './upstreams.js';

export interface NodeMetrics {
  metrics: PrometheusMetrics;
  port: number;
  stop(): void;
}

export async function startNodeMetrics(address: MetricsAddress, core: NodeCore, upstreams: Upstreams, log: Logger): Promise<NodeMetrics> {
  const { seams, work } = core;
  // A depth the queue cannot tell is left out, not shown as 0.
  const collectionDepth = () => {
    const depth = seams.queueDepth();
    return depth === null ? [] : [['collection', depth] as const];
  };
  const metrics = new PrometheusMetrics({
    breakerStates: () => upstreams.platformStatus.breakerStates(),
    queueDepths: () => [...collectionDepth(), ['in_work', work.size], ['collecting', work.collecting]],
    storage: core.dbs.root,
  });
  const listener = await startMetricsListener(address, metrics, log);
  return { metrics, port: listener.port, stop: () => listener.close() };
}
