// Records, about once a second, the units of the running month this server reserved and not spent
// yet, so that every display shows requests counted rather than reserved (docs/operations.md#accounts).
import type { Logger } from '../log.js';
import type { ReservedCount, ReservedUnitsRecord } from '../seams/reservedUnits/reservedUnits.js';
import { type AccountTable, field } from './accountTable.js';
import { monthIndexOf, monthOfIndex } from './calendar.js';
import { CommitRefused } from '../store/storageSpace.js';

/**
 * Copies the units in hand from the shared account table into the data directory
 * (src/seams/reservedUnits/reservedUnits.ts), for displays in this process or another. Off the
 * request path: the table is read without its locks (a figure a moment old is fine), and nothing
 * is written while nothing changed.
 */
export class ReservedUnitsRecorder {
  /** What was last written, as one comparable string; undefined before the first write, which clears what a crash left. */
  private written: string | undefined;
  private writing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly table: AccountTable,
    private readonly units: ReservedUnitsRecord,
    private readonly log: Pick<Logger, 'error'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records now, then every `everyMs`. */
  start(everyMs: number): void {
    void this.record();
    this.timer = setInterval(() => void this.record(), everyMs);
    this.timer.unref();
  }

  /** Stops recording, after one last record (after a clean stop's give-back: none in hand). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.writing;
    await this.record();
  }

  /** Writes the table's units in hand if they changed since the last write; one write at a time. */
  record(): Promise<void> {
    this.writing ??= this.write().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  private async write(): Promise<void> {
    const held = this.reservedUnits();
    const seen = JSON.stringify(held);
    if (seen === this.written) return;
    try {
      await this.units.replace(held);
      this.written = seen;
    } catch (error) {
      // Refused by a full store: said once by the store, and written with the next change after (docs/storage.md#a-full-disk).
      if (!(error instanceof CommitRefused)) this.log.error({ err: error }, 'units in hand not recorded');
    }
  }

  /** Units in hand of the running month, per account. Units of a month that ended stay counted in it (quotaMeter.ts). */
  private reservedUnits(): ReservedCount[] {
    const { ints } = this.table;
    const month = monthIndexOf(this.now());
    const held: ReservedCount[] = [];
    for (const base of this.table.claimed()) {
      if (ints[base + field.month] !== month) continue;
      const units = ints[base + field.granted]! - ints[base + field.spent]!;
      if (units > 0) held.push({ account: this.table.nameOf(base), month: monthOfIndex(month), units });
    }
    return held;
  }
}
