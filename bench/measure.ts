// Warm-up, then several runs; every figure quoted is the median over the runs
// (bench/README.md#reading-the-figures).
import { runWrk, type LoadShape, type WrkResult } from './wrk.js';

export interface Timing {
  warmupSeconds: number;
  runs: number;
  runSeconds: number;
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  runs: WrkResult[];
}

export interface RunHooks<T> {
  /** Called right before and after each measured run (e.g. to count background work). */
  before?(): T;
  after?(start: T, result: WrkResult): void;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Requests/s of `a` over `b`, measured run by run (measureInterleaved): the median of each
 * run's ratio, so that each ratio sees one state of the machine, where the ratio of the
 * medians could pair a fast run with a slow one.
 */
export const pairedRatio = (a: Measurement, b: Measurement): number =>
  median(a.runs.map((run, index) => run.requestsPerSecond / b.runs[index]!.requestsPerSecond));

let nonces = 0;
const nonce = () => `n${process.pid.toString(36)}x${(nonces++).toString(36)}x`;

const summary = (runs: WrkResult[]): Measurement => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  p50Ms: median(runs.map((run) => run.p50Ms)),
  p99Ms: median(runs.map((run) => run.p99Ms)),
  runs,
});

export async function measure<T>(url: string, shape: LoadShape, timing: Timing, hooks: RunHooks<T> = {}): Promise<Measurement> {
  if (timing.warmupSeconds > 0) await runWrk(url, shape, timing.warmupSeconds, nonce());
  const runs: WrkResult[] = [];
  for (let run = 0; run < timing.runs; run++) {
    const start = hooks.before?.();
    const result = await runWrk(url, shape, timing.runSeconds, nonce());
    hooks.after?.(start as T, result);
    runs.push(result);
  }
  return summary(runs);
}

/**
 * The same load against several servers in turn, run by run (A B C A B C ...), so that the
 * machine's drift between runs falls on all of them alike and cancels in their ratios. Each
 * server gets its own shape: the same requests, with that server's token.
 */
export async function measureInterleaved(targets: readonly { url: string; shape: LoadShape }[], timing: Timing): Promise<Measurement[]> {
  if (timing.warmupSeconds > 0) for (const { url, shape } of targets) await runWrk(url, shape, timing.warmupSeconds, nonce());
  const runs = targets.map((): WrkResult[] => []);
  for (let run = 0; run < timing.runs; run++) {
    for (const [index, { url, shape }] of targets.entries()) runs[index]!.push(await runWrk(url, shape, timing.runSeconds, nonce()));
  }
  return runs.map(summary);
}
