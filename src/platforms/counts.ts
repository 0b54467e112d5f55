// Platforms show rounded counts on public pages ("1.2K", "3.4M", "1,234"); docs/api.md#a-17
// expands them to whole numbers. Returns undefined for anything that is not a count.
const multipliers: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

export function expandCount(text: string): number | undefined {
  // A decimal is a count only with its K/M/B: a bare "12.345" may be a German "12,345".
  const match = /^\s*(?:(\d{1,3}(?:,\d{3})+|\d+)|(\d+(?:\.\d+)?)\s*([kmb]))\s*$/i.exec(text);
  if (!match) return undefined;
  const [, whole, scaled, suffix] = match;
  if (whole !== undefined) return Number(whole.replace(/,/g, ''));
  // Rounding absorbs binary fractions such as 4.35 * 1e6 = 4350000.000000001.
  return Math.round(Number(scaled) * multipliers[suffix!.toLowerCase()]!);
}

/**
 * The inverse the emulators use to show counts as public pages do: one decimal, rounded
 * down, trailing ".0" dropped ("999", "12.3K", "100K", "1.2M").
 */
export function abbreviateCount(value: number): string {
  const [divisor, suffix] = value >= 1e9 ? [1e9, 'B'] : value >= 1e6 ? [1e6, 'M'] : value >= 1e3 ? [1e3, 'K'] : [1, ''];
  const tenths = Math.floor((value * 10) / divisor);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)}${suffix}`;
}
