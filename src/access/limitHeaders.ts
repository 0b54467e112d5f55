// The rate and quota figures an admission decides (docs/api.md#a-48), and the two forms they are
// written in: name and value pairs (push messages), and header lines for an HTTP answer.

/** What the limit headers say; the quota's three are left out when the account has no quota. */
export interface LimitFigures {
  rateLimit: number;
  rateRemaining: number;
  /** Epoch seconds. */
  rateReset: number;
  quota: number | null;
  quotaRemaining: number | null;
  /** 'YYYY-MM-DD' */
  quotaResetsOn: string;
}

export function limitHeaderPairs(figures: LimitFigures): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['X-RateLimit-Limit', String(figures.rateLimit)],
    ['X-RateLimit-Remaining', String(figures.rateRemaining)],
    ['X-RateLimit-Reset', String(figures.rateReset)],
  ];
  if (figures.quota !== null) {
    headers.push(
      ['X-Quota-Limit', String(figures.quota)],
      ['X-Quota-Remaining', String(figures.quotaRemaining)],
      ['X-Quota-Reset', figures.quotaResetsOn],
    );
  }
  return headers;
}

/**
 * The same headers, in the same order, as the lines `\r\nName: value` that follow a header's
 * value: one preformatted block, so that the figures that change per request are spliced into
 * constant text instead of allocating six pairs and six strings.
 */
export function limitHeaderLines(figures: LimitFigures): string {
  const rate = `\r\nX-RateLimit-Limit: ${figures.rateLimit}\r\nX-RateLimit-Remaining: ${figures.rateRemaining}\r\nX-RateLimit-Reset: ${figures.rateReset}`;
  if (figures.quota === null) return rate;
  return `${rate}\r\nX-Quota-Limit: ${figures.quota}\r\nX-Quota-Remaining: ${figures.quotaRemaining}\r\nX-Quota-Reset: ${figures.quotaResetsOn}`;
}
