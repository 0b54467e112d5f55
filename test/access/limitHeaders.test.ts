// The limit headers in their two forms (src/access/limitHeaders.ts): pairs for push messages, preformatted lines for an HTTP answer.
import t from 'tap';
import { type LimitFigures, limitHeaderLines, limitHeaderPairs } from '../../src/access/limitHeaders.js';

const figures: LimitFigures = {
  rateLimit: 60,
  rateRemaining: 59,
  rateReset: 1_795_000_020,
  quota: 500,
  quotaRemaining: 499,
  quotaResetsOn: '2026-12-01',
};

t.test('limit headers - the preformatted lines say what the pairs say, in their order (docs/api.md#a-48)', async (t) => {
  const lines =
    '\r\nX-RateLimit-Limit: 60\r\nX-RateLimit-Remaining: 59\r\nX-RateLimit-Reset: 1795000020\r\nX-Quota-Limit: 500\r\nX-Quota-Remaining: 499\r\nX-Quota-Reset: 2026-12-01';
  t.equal(limitHeaderLines(figures), lines);
  t.equal(
    limitHeaderPairs(figures)
      .map(([name, value]) => `\r\n${name}: ${value}`)
      .join(''),
    lines,
  );
});

t.test('limit headers - an account without a quota has only the three rate headers', async (t) => {
  const unlimited = { ...figures, quota: null, quotaRemaining: null };
  t.equal(limitHeaderLines(unlimited), '\r\nX-RateLimit-Limit: 60\r\nX-RateLimit-Remaining: 59\r\nX-RateLimit-Reset: 1795000020');
  t.same(limitHeaderPairs(unlimited), [
    ['X-RateLimit-Limit', '60'],
    ['X-RateLimit-Remaining', '59'],
    ['X-RateLimit-Reset', '1795000020'],
  ]);
});
