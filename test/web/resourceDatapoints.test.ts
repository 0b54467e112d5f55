// The resource inspector's datapoints in process (docs/dashboard.md#resource-inspector,
// docs/history.md#console): the current values, and per datapoint a chart of its recorded
// series with axes in people's units and the same points as a table.
import t from 'tap';
import { initialTransition, transition } from 'xstate';
import { createResourceMachine, dueEventFor } from '../../machines/resource.js';
import { defaultPolicy } from '../../src/config.js';
import { renderView } from '../../src/resources/view.js';
import { openDatabases } from '../../src/store/environment.js';
import { ResourceStore, type StoredResource } from '../../src/store/resourceStore.js';
import { lineChart, valueTicks } from '../../src/web/lineChart.js';
import { resourceDatapoints } from '../../src/web/pages/console/resourceDatapoints.js';
import { compactNumber, dayOfMonth } from '../../src/web/peopleUnits.js';
import { tempDataDir } from '../helpers/service.js';

const machine = createResourceMachine(defaultPolicy);
const hour = 3_600_000;
const day = 24 * hour;
const createdAt = Date.UTC(2026, 10, 23, 9);
const key = 'github/account/octocat';

/** A resource collected at each `[at, followers]` in turn, each step committed through the store. */
async function collectedOver(store: ResourceStore, counts: Array<[number, number]>) {
  const [pending] = initialTransition(machine, { createdAt });
  let state = pending;
  let previous: StoredResource = { value: 'pending', context: pending.context };
  const committed = [
    await store.commit(key, undefined, {
      resource: previous,
      view: renderView('pending', pending.context),
      event: dueEventFor.pending,
      cause: { event: 'CREATED', at: createdAt },
    }),
  ];
  for (const [index, [at, followers]] of counts.entries()) {
    [state] = transition(machine, state, {
      type: 'COLLECTED',
      at,
      datapoints: {
        metrics: { followers: { value: followers, semantic: 'followers' } },
        attributes: { verified: { value: true, semantic: 'verified' } },
      },
    });
    const next: StoredResource = { value: 'available', context: state.context };
    const view = renderView(next.value, next.context);
    const base = { version: index + 1, resource: previous };
    committed.push(
      await store.commit(key, base, { resource: next, view, event: dueEventFor.available, cause: { event: 'COLLECTED', at } }),
    );
    previous = next;
  }
  return { last: previous, committed };
}

const texts = (markup: string, pattern: RegExp) => [...markup.matchAll(pattern)].map((match) => match[1]!.replace(/<[^>]+>/g, ''));
/** Each body row's cells as text. */
const rows = (markup: string) =>
  [...markup.matchAll(/<tr><td>([\s\S]*?)<\/tr>/g)].map((row) => texts(`<td>${row[1]}`, /<td[^>]*>([\s\S]*?)<\/td>/g));

t.test('people units - days of the month and compact counts that tell ticks apart', async (t) => {
  const now = Date.UTC(2026, 10, 26);
  t.equal(dayOfMonth(Date.UTC(2026, 10, 12, 23), now), '12 Nov');
  t.equal(dayOfMonth(Date.UTC(2025, 0, 3), now), '3 Jan 2025');
  t.same(
    [950, 1234, 12_345, 123_456, 1_500_000, 2e9].map((n) => compactNumber(n)),
    ['950', '1.2k', '12.3k', '123k', '1.5M', '2B'],
  );
  t.same(
    [12_340, 12_360].map((n) => compactNumber(n, 20)),
    ['12.34k', '12.36k'],
  );
  t.same(valueTicks([12_345, 12_391]), { ticks: [12_340, 12_360, 12_380, 12_400], step: 20 });
  t.same(valueTicks([7, 7]), { ticks: [7, 8], step: 1 });
});

t.test('resource inspector - current datapoints, a chart per numeric series and its points as a table', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const { last, committed } = await collectedOver(store, [
    [createdAt + hour, 1_180],
    [createdAt + day, 1_180],
    [createdAt + day + 6 * hour, 1_250],
    [createdAt + 3 * day, 1_420],
  ]);
  t.same(committed, [true, true, true, true, true]);
  const now = createdAt + 3 * day + hour;
  const markup = resourceDatapoints({ key, groups: last.context, history: store.series, now }).text;

  t.same(rows(markup.match(/<table id="datapoints">[\s\S]*?<\/table>/)![0]), [
    ['metrics', 'followers', '1,420', 'available', '26 Nov 09:00 UTC', 'followers'],
    ['attributes', 'verified', 'true', 'available', '26 Nov 09:00 UTC', 'verified'],
  ]);

  const followers = markup.match(/<section class="series" id="series-metrics-followers">[\s\S]*?<\/section>/)![0];
  t.same(texts(followers, /<text class="tick"[^>]*>([^<]*)<\/text>/g), [
    '1.1k',
    '1.2k',
    '1.3k',
    '1.4k',
    '1.5k',
    '24 Nov',
    '25 Nov',
    '26 Nov',
  ]);
  t.match(followers, 'aria-label="metrics followers over time"');
  t.equal((followers.match(/<circle /g) ?? []).length, 3, 'an unchanged value records no point');
  t.same(rows(followers), [
    ['23 Nov 10:00 UTC', '1,180'],
    ['24 Nov 15:00 UTC', '1,250'],
    ['26 Nov 09:00 UTC', '1,420'],
  ]);
  t.match(followers, '<summary>The 3 points as a table</summary>');

  const verified = markup.match(/<section class="series" id="series-attributes-verified">[\s\S]*?<\/section>/)![0];
  t.notMatch(verified, '<svg', 'a value that is not a number has no chart');
  t.same(rows(verified), [['23 Nov 10:00 UTC', 'true']]);
});

t.test('resource inspector - says so when nothing is recorded or recording is off', async (t) => {
  const dbs = openDatabases(tempDataDir(t));
  t.teardown(() => dbs.root.close());
  const store = new ResourceStore(dbs);
  const now = createdAt + hour;
  t.match(
    resourceDatapoints({ key, groups: {}, history: store.series, now }).text,
    '<p>No datapoints collected yet.</p><h2>History</h2><p>No points recorded yet.</p>',
  );
  const off = new ResourceStore(dbs, { ...store.series.policy, days: 0 });
  t.match(resourceDatapoints({ key, groups: {}, history: off.series, now }).text, 'History is not recorded');
});

t.test('line chart - a series within two days is labelled with its two ends, a single collection with its time', async (t) => {
  const now = Date.UTC(2026, 10, 26, 12);
  const single = lineChart('x', [{ at: now, value: 50_691 }], now, now).text;
  t.same(texts(single, /<text class="tick"[^>]*>([^<]*)<\/text>/g), ['50k', '52k', '26 Nov 12:00 UTC']);
  const markup = lineChart('x', [{ at: Date.UTC(2026, 10, 26, 8, 5), value: 3 }], now, now).text;
  t.same(texts(markup, /<text class="tick"[^>]*>([^<]*)<\/text>/g), ['3', '4', '26 Nov 08:05 UTC', '26 Nov 12:00 UTC']);
});
