// Dates, durations and counts in people's units for the dashboard and the console
// (docs/dashboard.md#peoples-units): "26 Nov 14:05 UTC", "in 6 h", "1 call", "2 calls".
// Machine-readable values stay in the markup's `datetime` attributes.

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `count` with its noun, singular for exactly one: "1 call", "0 calls", "1,000 calls". */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? noun : nouns}`;
}

/** "26 Nov 14:05 UTC"; the year is added when it is not `now`'s. */
export function dayAndTime(ms: number, now: number): string {
  const at = new Date(ms);
  const year = at.getUTCFullYear() === new Date(now).getUTCFullYear() ? '' : ` ${at.getUTCFullYear()}`;
  return `${at.getUTCDate()} ${months[at.getUTCMonth()]}${year} ${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())} UTC`;
}

/** "14:05:07 UTC": a time within the last minutes, to the second. */
export function timeOfDay(ms: number): string {
  const at = new Date(ms);
  return `${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())}:${twoDigits(at.getUTCSeconds())} UTC`;
}

/** A duration in its largest whole unit, rounded: "40 s", "12 min", "6 h", "3 days". */
export function duration(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} h`;
  return plural(Math.round(hours / 24), 'day');
}

/** "in 6 h" or "12 min ago", from `now`. */
export function relative(ms: number, now: number): string {
  return ms >= now ? `in ${duration(ms - now)}` : `${duration(now - ms)} ago`;
}

/** "12 Nov"; the year is added when it is not `now`'s: "12 Nov 2025". */
export function dayOfMonth(ms: number, now: number): string {
  const at = new Date(ms);
  const year = at.getUTCFullYear() === new Date(now).getUTCFullYear() ? '' : ` ${at.getUTCFullYear()}`;
  return `${at.getUTCDate()} ${months[at.getUTCMonth()]}${year}`;
}

const scales: ReadonlyArray<readonly [number, string]> = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/**
 * A count for an axis: "950", "1.2k", "3M". `step`, the distance between an axis' ticks, sets
 * the decimals that tell neighbouring ticks apart ("12.34k" beside "12.36k").
 */
export function compactNumber(value: number, step?: number): string {
  const [scale, suffix] = scales.find(([size]) => Math.abs(value) >= size) ?? [1, ''];
  const decimals =
    step === undefined || step <= 0 ? (scale > 1 && Math.abs(value) < 100 * scale ? 1 : 0) : Math.ceil(-Math.log10(step / scale));
  return `${Number((value / scale).toFixed(Math.min(3, Math.max(0, decimals))))}${suffix}`;
}
