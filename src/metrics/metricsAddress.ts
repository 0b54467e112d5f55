// `--metrics HOST:PORT`: where the metrics listener binds, off unless the operator gives one
// (docs/operations-endpoints.md#why-metrics-have-their-own-address).
import { UsageError } from '../usageError.js';

export interface MetricsAddress {
  host: string;
  port: number;
}

/** Parses `HOST:PORT` (`[::1]:9464` for an IPv6 host); port 0 picks a free one. */
export function parseMetricsAddress(text: string, source = '--metrics'): MetricsAddress {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65_535) {
    throw new UsageError(`invalid ${source} '${text}': give HOST:PORT, e.g. 127.0.0.1:9464`);
  }
  return { host: match[1] ?? match[2]!, port };
}
