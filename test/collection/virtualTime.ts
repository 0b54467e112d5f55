// Virtual time for pipelines that also await promises: an RxJS TestScheduler advanced action by
// action, with the promise callbacks of each step let run before the next
// (docs/dependencies.md#rxjs; the loop's ports return promises, which TestScheduler.run cannot interleave).
import { TestScheduler } from 'rxjs/testing';

const settle = async () => {
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
};

export class VirtualTime {
  readonly scheduler = new TestScheduler(() => {
    throw new Error('marble assertions are not used with VirtualTime');
  });

  now = (): number => this.scheduler.now();

  /** Runs everything due within `ms` from now, in due order, then stops the clock at now + ms. */
  async advance(ms: number): Promise<void> {
    const target = this.scheduler.frame + ms;
    for (;;) {
      await settle();
      const next = this.scheduler.actions[0];
      if (!next || next.delay > target) break;
      this.scheduler.maxFrames = next.delay;
      this.scheduler.flush();
    }
    this.scheduler.frame = target;
    await settle();
  }
}
