// The resource thread's Health, told to every edge thread whenever its problems change, so that
// /readyz on any edge answers for the whole server (docs/operations-endpoints.md, "Readiness with
// threads"). Components clear their problem on every success, most often with none reported:
// only a clear that removes a problem is posted.
import { Health } from '../health.js';
import { healthCheck, type ReadinessProblem } from '../http/readiness.js';
import type { ToEdge } from './edgeMessages.js';

export interface HealthListener {
  postMessage(message: ToEdge): void;
}

export class PublishedHealth extends Health {
  private readonly listeners: HealthListener[] = [];
  private readonly reported = new Set<string>();
  private readonly asProblems = healthCheck(this);

  /** Tells `listener` the problems now, and again each time they change. */
  publishTo(listener: HealthListener): void {
    this.listeners.push(listener);
    listener.postMessage(this.message());
  }

  override report(component: string, message: string): void {
    super.report(component, message);
    this.reported.add(component);
    this.publish();
  }

  override clear(component: string): void {
    super.clear(component);
    if (this.reported.delete(component)) this.publish();
  }

  private message(): ToEdge {
    const problems: ReadinessProblem[] = [...this.asProblems()];
    return { type: 'health', problems };
  }

  private publish(): void {
    const message = this.message();
    for (const listener of this.listeners) listener.postMessage(message);
  }
}
