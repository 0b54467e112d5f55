// Quota months are calendar months in UTC (docs/api.md#a-49). Every admitted request asks for
// its month and the next month's start: both are kept until the month turns.
interface MonthSpan {
  start: number;
  end: number;
  /** year * 12 + month (0-11): never 0 for a real date, so 0 can mean "no month yet" */
  index: number;
  /** 'YYYY-MM' */
  month: string;
  /** The first day of the next month, 'YYYY-MM-DD' */
  nextStart: string;
}

let current: MonthSpan = { start: 0, end: 0, index: 0, month: '', nextStart: '' };

function spanOf(now: number): MonthSpan {
  if (now >= current.start && now < current.end) return current;
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  current = {
    start,
    end,
    index: date.getUTCFullYear() * 12 + date.getUTCMonth(),
    month: date.toISOString().slice(0, 7),
    nextStart: new Date(end).toISOString().slice(0, 10),
  };
  return current;
}

export function monthOf(now: number): string {
  return spanOf(now).month;
}

/** The first day of the next UTC month, as an ISO date (docs/api.md#a-48, docs/api.md#a-49). */
export function nextMonthStart(now: number): string {
  return spanOf(now).nextStart;
}

/** The month as a number that grows by one each month (for counters in shared memory). */
export function monthIndexOf(now: number): number {
  return spanOf(now).index;
}

/** 'YYYY-MM' of a month index. */
export function monthOfIndex(index: number): string {
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}
