// Quota months are UTC calendar months (docs/api.md#a-49); the answers are cached per month, so
// the cases jump back and forth across month and year boundaries.
import t from 'tap';
import { monthOf, nextMonthStart } from '../../src/access/calendar.js';

const cases: Array<[number, string, string]> = [
  [Date.UTC(2026, 0, 1), '2026-01', '2026-02-01'],
  [Date.UTC(2026, 0, 31, 23, 59, 59, 999), '2026-01', '2026-02-01'],
  [Date.UTC(2026, 1, 1), '2026-02', '2026-03-01'],
  [Date.UTC(2025, 11, 31, 23, 59, 59, 999), '2025-12', '2026-01-01'],
  [Date.UTC(2024, 1, 29, 12), '2024-02', '2024-03-01'],
];

t.test('calendar - month and next month start at every boundary, in any order', async (t) => {
  for (const [now, month, next] of [...cases, ...[...cases].reverse()]) {
    t.equal(monthOf(now), month, `month of ${new Date(now).toISOString()}`);
    t.equal(nextMonthStart(now), next, `next month start after ${new Date(now).toISOString()}`);
  }
});
