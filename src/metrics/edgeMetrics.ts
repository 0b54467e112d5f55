// The recorder of an edge thread (docs/operations-endpoints.md#metrics-with-threads): answers and
// refusals counted in plain numbers, posted to the resource thread about once a second.
import { AnswerTally, answerSeriesNames, latencyBuckets, type AnswerCounts } from './answerTally.js';
import type { RefusalReason, RequestMetrics } from './metrics.js';

/** What an edge counted since its previous post. */
export interface EdgeCounts {
  answers: AnswerCounts;
  refusals: Array<[RefusalReason, number]>;
}

export class EdgeMetrics implements RequestMetrics {
  private readonly answers = new AnswerTally(answerSeriesNames, latencyBuckets);
  private readonly refusals = new Map<RefusalReason, number>();

  requestAnswered(route: string, status: string, seconds: number): void {
    this.answers.record(route, status, seconds);
  }

  admissionRefused(reason: RefusalReason): void {
    this.refusals.set(reason, (this.refusals.get(reason) ?? 0) + 1);
  }

  /** What was counted since the last call, undefined when nothing was; counting starts again from zero. */
  drain(): EdgeCounts | undefined {
    const answers = this.answers.drain();
    if (answers.length === 0 && this.refusals.size === 0) return undefined;
    const refusals = [...this.refusals];
    this.refusals.clear();
    return { answers, refusals };
  }
}
