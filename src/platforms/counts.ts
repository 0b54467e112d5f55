// Platforms show rounded counts on public pages ("1.2K", "3.4M", "1,234"); decisions 6
// expands them to whole numbers. Returns undefined for anything that is not a count.
const multipliers: Record<string, number> = { '': 1, k: 1e3, m: 1e6, b: 1e9 };

export function expandCount(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? Math.round(text) : undefined;
  const match = /^\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([kmb]?)\s*$/i.exec(text);
  if (!match) return undefined;
  const number = Number(match[1]!.replace(/,/g, ''));
  // Rounding absorbs binary fractions such as 4.35 * 1e6 = 4350000.000000001.
  return Math.round(number * multipliers[match[2]!.toLowerCase()]!);
}
