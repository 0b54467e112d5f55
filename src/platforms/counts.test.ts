// The one parser of rounded public counts (docs/api.md#a-17), and the emulators' inverse of it.
import t from 'tap';
import { abbreviateCount, expandCount } from './counts.js';

t.test('counts - rounded public figures expand to whole numbers', async (t) => {
  const cases: Array<[string, number]> = [
    ['0', 0],
    ['999', 999],
    ['1,234', 1234],
    ['12,345,678', 12_345_678],
    ['1.2K', 1200],
    ['1.2k', 1200],
    ['12K', 12_000],
    ['3.4M', 3_400_000],
    ['4.35M', 4_350_000],
    ['2B', 2_000_000_000],
    [' 7 K ', 7000],
  ];
  for (const [text, value] of cases) t.equal(expandCount(text), value, JSON.stringify(text));
});

t.test('counts - anything that is not a count is refused, never read as zero', async (t) => {
  for (const text of ['', 'K', '1.2.3K', '12,34', '1,2345', '-5', '1e6', '1.2T', 'twelve', '12 K followers', '12.345', '1.5']) {
    t.equal(expandCount(text), undefined, JSON.stringify(text));
  }
});

t.test('counts - the emulators abbreviate as public pages do, and the parser reads it back', async (t) => {
  const cases: Array<[number, string]> = [
    [0, '0'],
    [999, '999'],
    [1000, '1K'],
    [1299, '1.2K'],
    [12_345, '12.3K'],
    [100_000, '100K'],
    [1_999_999, '1.9M'],
    [3_400_000, '3.4M'],
    [2_000_000_000, '2B'],
  ];
  for (const [value, text] of cases) {
    t.equal(abbreviateCount(value), text, String(value));
    const back = expandCount(text)!;
    t.ok(back <= value && value - back < Math.max(1, value / 10), `${text} reads back within its rounding`);
  }
});
