// The emulator's state: the fault switch, the count offsets, and the resolution of one request's
// lookups into what the platform handler must render and what the server must do (503, hang, delay).
import { metricNames, type PlatformCode, type ResourceType } from '../model.js';
import type { PlatformDefinition } from '../platforms/types.js';
import { emulatedCounts } from './counts.js';
import type { CountName, EmulatedCounts, EmulatedResource, EmulatorContext } from '../platforms/emulatorContract.js';
import type { FaultMode } from '../faultModes.js';

export { faultModes, type FaultMode } from '../faultModes.js';

/** docs/operations.md#emulator: `slow*` identifiers are answered after 3 seconds. */
export const slowAnswerMs = 3_000;

/** One fault switched on by POST /_emulator/faults. */
export interface Fault {
  platform: PlatformCode;
  identifier: string;
  mode: Exclude<FaultMode, 'none'>;
}

/** What the server does with a request beyond the handler's reply. */
export interface RequestFaults {
  error: boolean;
  hang: boolean;
  delayMs: number;
}

/** Counts moved by POST /_emulator/counts (docs/operations.md#moving-counts). */
export interface CountOffset {
  platform: PlatformCode;
  identifier: string;
  add: Partial<Record<CountName, number>>;
}

export const countNames: readonly CountName[] = metricNames;

export class EmulatorWorld {
  private readonly faults = new Map<string, Fault>();
  private readonly offsets = new Map<string, CountOffset>();

  constructor(private readonly platforms: ReadonlyMap<PlatformCode, PlatformDefinition>) {}

  setFault(platform: PlatformCode, identifier: string, mode: FaultMode): void {
    const normalized = identifier === '*' ? '*' : this.normalizeAny(platform, identifier);
    const key = `${platform}/${normalized}`;
    this.faults.delete(key);
    if (mode !== 'none') this.faults.set(key, { platform, identifier: normalized, mode });
  }

  /** Adds to a resource's counts from now on; offsets accumulate, a count never goes below 0. */
  addCounts(platform: PlatformCode, identifier: string, add: Partial<Record<CountName, number>>): CountOffset {
    const normalized = this.normalizeAny(platform, identifier);
    const key = `${platform}/${normalized}`;
    const offset = this.offsets.get(key) ?? { platform, identifier: normalized, add: {} };
    for (const [name, amount] of Object.entries(add) as [CountName, number][]) offset.add[name] = (offset.add[name] ?? 0) + amount;
    this.offsets.set(key, offset);
    return offset;
  }

  /** The count offsets in force, in the order they were first made (identifiers normalized). */
  listCounts(): CountOffset[] {
    return [...this.offsets.values()];
  }

  /** The faults in force, in the order they were switched on (identifiers normalized). */
  listFaults(): Fault[] {
    return [...this.faults.values()];
  }

  /**
   * A lookup context for one request to `platform` (on `host`, for a platform whose references
   * name their hosts), and the server faults it accumulates.
   */
  scope(platform: PlatformCode, now: number, host?: string): { context: EmulatorContext; faults: RequestFaults } {
    // docs/operations.md#emulator: a server whose name starts with `flaky` is down, `slow` is slow.
    const faults: RequestFaults = {
      error: host?.startsWith('flaky') ?? false,
      hang: false,
      delayMs: host?.startsWith('slow') ? slowAnswerMs : 0,
    };
    const definition = this.platforms.get(platform)!;
    const lookup = (type: ResourceType, identifier: string): EmulatedResource => {
      const rule = definition.identifiers[type];
      const normalized = rule?.pattern.test(identifier) ? rule.normalize(identifier) : undefined;
      const drifted = emulatedCounts(platform, type, normalized ?? identifier, now);
      if (!rule || normalized === undefined) return { mode: 'missing', rounded: false, counts: drifted };
      const counts = withOffset(drifted, this.offsets.get(`${platform}/${normalized}`));
      const name = rule.namePart(normalized);
      let mode: EmulatedResource['mode'] = name.startsWith('missing') ? 'missing' : 'normal';
      if (name.startsWith('flaky')) faults.error = true;
      if (name.startsWith('slow')) faults.delayMs = slowAnswerMs;
      switch ((this.faults.get(`${platform}/${normalized}`) ?? this.faults.get(`${platform}/*`))?.mode ?? 'none') {
        case 'error':
          faults.error = true;
          break;
        case 'timeout':
          faults.hang = true;
          break;
        case 'ratelimit':
          mode = 'ratelimit';
          break;
        case 'malformed':
          mode = 'malformed';
          break;
        case 'notfound':
          mode = 'missing';
          break;
        case 'slow':
          faults.delayMs = slowAnswerMs;
          break;
        case 'none':
          break;
      }
      return { mode, rounded: name.startsWith('rounded'), counts };
    };
    return { context: { now, lookup }, faults };
  }

  /** Fault requests name no type: normalize with the first rule whose syntax matches. */
  private normalizeAny(platform: PlatformCode, identifier: string): string {
    const rules = Object.values(this.platforms.get(platform)?.identifiers ?? {});
    const rule = rules.find((candidate) => candidate.pattern.test(identifier));
    return rule ? rule.normalize(identifier) : identifier;
  }
}

function withOffset(counts: EmulatedCounts, offset: CountOffset | undefined): EmulatedCounts {
  if (!offset) return counts;
  const moved = { ...counts };
  for (const [name, amount] of Object.entries(offset.add) as [CountName, number][]) moved[name] = Math.max(0, moved[name] + amount);
  return moved;
}
