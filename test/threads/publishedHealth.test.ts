// The resource thread's Health as the edges hear it (docs/operations-endpoints.md#readiness-with-threads): the whole list at once and at each change, nothing for a clear that changes nothing.
import t from 'tap';
import type { ToEdge } from '../../src/threads/edgeMessages.js';
import { Health } from '../../src/health.js';
import { publishHealth } from '../../src/threads/portLink.js';

t.test('published health - an edge hears the problems when it joins and at each change, never for a clear of nothing', async (t) => {
  let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
  const health = new Health(() => clock);
  health.report('due work', 'due work scan failed: boom');
  const heard: ToEdge[] = [];
  publishHealth(health, { postMessage: (message) => heard.push(message) });
  const since = '2026-11-23T12:00:00.000Z';
  t.same(heard, [{ type: 'health', problems: [{ component: 'due work', message: 'due work scan failed: boom', since, count: 1 }] }]);
  clock += 1_000;
  health.report('due work', 'due work scan failed: boom again');
  health.clear('collection');
  health.clear('collection outcomes');
  t.equal(heard.length, 2, 'clears of problems never reported post nothing');
  t.same(heard[1], {
    type: 'health',
    problems: [{ component: 'due work', message: 'due work scan failed: boom again', since, count: 2 }],
  });
  health.clear('due work');
  health.clear('due work');
  t.same(heard.slice(2), [{ type: 'health', problems: [] }], 'the clear that removed it is posted once');
  t.equal(health.healthy, true);
});
