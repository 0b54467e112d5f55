// Turns the counts a collector read into a `found` outcome: a count left out is `null`, an answer
// with none of the counts read is a failure (docs/platforms.md#missing-fields).
import { found, type CollectionOutcome, type MetricName, type ReportedDatapoint } from '../model.js';
import { unparsable } from './upstream.js';

/**
 * One datapoint as read: `undefined` when the answer left the field out, `null` when the
 * platform never reports it (so it does not count as something learned).
 */
export type Reading = readonly [value: number | boolean | null | undefined, semantic: string];

const point = ([value, semantic]: Reading): ReportedDatapoint => ({ value: value ?? null, semantic });

export function reportedCounts(
  metrics: Partial<Record<MetricName, Reading>>,
  attributes?: Readonly<Record<string, Reading>>,
): CollectionOutcome {
  const readings = Object.entries(metrics).flatMap(([name, reading]) => (reading ? [[name, reading] as const] : []));
  if (!readings.some(([, [value]]) => typeof value === 'number')) return unparsable;
  return found({
    metrics: Object.fromEntries(readings.map(([name, reading]) => [name, point(reading)])),
    ...(attributes ? { attributes: Object.fromEntries(Object.entries(attributes).map(([name, reading]) => [name, point(reading)])) } : {}),
  });
}
