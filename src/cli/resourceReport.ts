// How `datapoints resources show` lays a resource out for a person (docs/operations.md#resources):
// one aligned table, every time as a UTC minute with how far it is from now in the largest
// whole unit ("in 6 h", "3 min ago"), never epoch milliseconds.
import type { ResourceContext } from '../../machines/resource.js';

/** A row of the report: a label and its text. */
export type ReportRow = readonly [label: string, text: string];

/** `2026-11-27 04:40 UTC`: an instant to the minute, as people read one. */
export function utcMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const units = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
] as const;

/** "in 6 h", "3 min ago", "now": the distance from `now`, rounded in its largest unit (5 h 59 min is "6 h"). */
export function fromNow(at: number, now: number): string {
  const distance = Math.abs(at - now);
  const unit = units.find(([, size]) => distance >= size);
  if (!unit) return 'now';
  const amount = `${Math.round(distance / unit[1])} ${unit[0]}`;
  return at > now ? `in ${amount}` : `${amount} ago`;
}

/** An instant and its distance from now: `2026-11-27 04:40 UTC (in 6 h)`. */
export function when(at: number | null, now: number): string {
  return at === null ? 'never' : `${utcMinute(at)} (${fromNow(at, now)})`;
}

/** The datapoints held, one `name value` pair each, the unavailable ones marked. */
export function datapointsText(context: ResourceContext): string {
  const all = { ...context.metrics, ...context.attributes };
  const names = Object.keys(all).sort();
  if (names.length === 0) return 'none';
  return names.map((name) => `${name} ${all[name]!.status === 'available' ? String(all[name]!.value) : 'unavailable'}`).join(', ');
}

/** The rows laid out: labels padded to one column. */
export function table(rows: readonly ReportRow[]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, text]) => `${label.padEnd(width)}${text}`.trimEnd());
}
