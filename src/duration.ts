// Durations as operators write them (docs/operations.md#commands): 250ms, 30s, 1m, 6h, 1d.
const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`invalid duration '${text}': write it like 250ms, 30s, 1m, 6h or 1d`);
  const value = Number(match[1]) * unitMs[match[2]!]!;
  if (!Number.isSafeInteger(value)) throw new Error(`duration '${text}' is too large`);
  return value;
}

/** The largest unit that writes the duration exactly: 3600000 -> 1h, 90000 -> 90s. */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
