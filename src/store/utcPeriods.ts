// The UTC periods history is kept by (docs/history.md#layout): a day per point once rolled up, a
// month per stored entry.
const dayMs = 86_400_000;

/** The UTC midnight that begins the day of `at`. */
export function startOfDay(at: number): number {
  return Math.floor(at / dayMs) * dayMs;
}

/** The first millisecond of the UTC month of `at`. */
export function startOfMonth(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}
