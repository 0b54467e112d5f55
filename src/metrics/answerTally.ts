// Answers by route and status, and their latency in buckets, tallied in plain numbers and written in
// Prometheus' text format at scrape time (docs/operations-endpoints.md#how-the-counters-get-their-events).

/** One route and status code: how many answers, and how long they took. */
class AnswerSeries {
  /** Answers per bucket, not cumulative; the last one is +Inf. */
  readonly perBucket: Float64Array;
  count = 0;
  sum = 0;

  constructor(
    readonly labels: string,
    private readonly bounds: readonly number[],
  ) {
    this.perBucket = new Float64Array(bounds.length + 1);
  }

  /** Empties the series into `into` when it recorded anything since it was last drained. */
  drainInto(route: string, status: string, into: AnswerCounts): void {
    if (this.count === 0) return;
    into.push([route, status, [...this.perBucket], this.count, this.sum]);
    this.perBucket.fill(0);
    this.count = 0;
    this.sum = 0;
  }

  add(perBucket: readonly number[], count: number, sum: number): void {
    for (let bucket = 0; bucket < this.perBucket.length; bucket++) this.perBucket[bucket]! += perBucket[bucket] ?? 0;
    this.count += count;
    this.sum += sum;
  }

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    this.perBucket[bucket]!++;
    this.count++;
    this.sum += seconds;
  }
}

/**
 * Answers recorded by one tally since it was last drained, by route and status: what an edge
 * thread posts to the resource thread (docs/operations-endpoints.md#metrics-with-threads).
 */
export type AnswerCounts = Array<[route: string, status: string, perBucket: number[], count: number, sum: number]>;

/** Latency buckets in seconds: a warm search answers well under a millisecond. */
export const latencyBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export const answerSeriesNames = { requests: 'datapoints_http_requests_total', duration: 'datapoints_http_request_duration_seconds' };

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * Every answer of the search path passes here: prom-client's counters and histograms validate and
 * hash their labels on each call (~1.3 us an answer, measured); this costs an array increment.
 */
export class AnswerTally {
  /** By route, then by status as written: found without building a key per answer. */
  private readonly byRoute = new Map<string, Map<string, AnswerSeries>>();

  constructor(
    private readonly names: { requests: string; duration: string },
    /** Upper bounds of the latency buckets in seconds, ascending. */
    private readonly bounds: readonly number[],
  ) {}

  record(route: string, status: string, seconds: number): void {
    this.series(route, status).observe(seconds);
  }

  /** What was recorded since the last drain; the tally starts again from zero. */
  drain(): AnswerCounts {
    const counts: AnswerCounts = [];
    for (const [route, byStatus] of this.byRoute) for (const [status, series] of byStatus) series.drainInto(route, status, counts);
    return counts;
  }

  /** Adds what another tally with the same buckets drained. */
  add(counts: AnswerCounts): void {
    for (const [route, status, perBucket, count, sum] of counts) this.series(route, status).add(perBucket, count, sum);
  }

  private series(route: string, status: string): AnswerSeries {
    let byStatus = this.byRoute.get(route);
    if (!byStatus) {
      byStatus = new Map();
      this.byRoute.set(route, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = new AnswerSeries(`route="${escapeLabel(route)}",status="${escapeLabel(status.slice(0, 3))}"`, this.bounds);
      byStatus.set(status, series);
    }
    return series;
  }

  /** The counter and the histogram, in the text exposition format. */
  exposition(): string {
    const { requests, duration } = this.names;
    const all = [...this.byRoute.values()].flatMap((byStatus) => [...byStatus.values()]);
    const lines = [
      `# HELP ${requests} HTTP answers written, by route and status code`,
      `# TYPE ${requests} counter`,
      ...all.map((series) => `${requests}{${series.labels}} ${series.count}`),
      `# HELP ${duration} Time from a request arriving to its answer being written, by route and status code`,
      `# TYPE ${duration} histogram`,
    ];
    for (const series of all) {
      let cumulative = 0;
      for (let bucket = 0; bucket <= this.bounds.length; bucket++) {
        cumulative += series.perBucket[bucket]!;
        const le = bucket < this.bounds.length ? String(this.bounds[bucket]) : '+Inf';
        lines.push(`${duration}_bucket{${series.labels},le="${le}"} ${cumulative}`);
      }
      lines.push(`${duration}_sum{${series.labels}} ${series.sum}`, `${duration}_count{${series.labels}} ${series.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}
