// Quota months are calendar months in UTC (decisions 19).
export function monthOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** The first day of the next UTC month, as an ISO date (decisions 16, 18). */
export function nextMonthStart(now: number): string {
  const date = new Date(now);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}
