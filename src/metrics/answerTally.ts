// Answers by route and status, and their latency in buckets, tallied in plain numbers and written
// in Prometheus' text format at scrape time (docs/operations-endpoints.md, "Metrics"). Every
// answer of the search path passes here: prom-client's counters and histograms validate and hash
// their labels on each call (~1.3 us an answer, measured), this costs an array increment.

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

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    this.perBucket[bucket]!++;
    this.count++;
    this.sum += seconds;
  }
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export class AnswerTally {
  /** By route, then by status as written: found without building a key per answer. */
  private readonly byRoute = new Map<string, Map<string, AnswerSeries>>();

  constructor(
    private readonly names: { requests: string; duration: string },
    /** Upper bounds of the latency buckets in seconds, ascending. */
    private readonly bounds: readonly number[],
  ) {}

  record(route: string, status: string, seconds: number): void {
    let byStatus = this.byRoute.get(route);
    if (!byStatus) this.byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = new AnswerSeries(`route="${escapeLabel(route)}",status="${escapeLabel(status.slice(0, 3))}"`, this.bounds);
      byStatus.set(status, series);
    }
    series.observe(seconds);
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
    return lines.join('\n') + '\n';
  }
}
