// Reads are reads (docs/architecture.md): rendering a search answer only reads views and says
// which resources it found unknown or due a refresh; asking for them is the caller's next step.
import t from 'tap';
import { renderSearchResponse } from '../../src/api/searchResponse.js';
import { identifierSyntax } from '../../src/api/schema.js';
import type { RequestedResource } from '../../src/api/validation.js';
import type { ResourceView } from '../../src/resources/view.js';

const now = Date.UTC(2026, 10, 23);
const requested = (identifier: string): RequestedResource => identifierSyntax('github', 'account')!.requested(identifier)!;

t.test('search rendering - answers from views and lists the unknown and the due, reading only', async (t) => {
  const views = new Map<string, ResourceView>([
    ['github/account/fresh', { entryEnd: ',"status":"available","metrics":{}}', refreshAfter: now + 1 }],
    ['github/account/due', { entryEnd: ',"status":"available","metrics":{}}', refreshAfter: now }],
    ['github/account/stale', { entryEnd: ',"status":"stale"}', refreshAfter: 0 }],
  ]);
  const reads: string[] = [];
  const source = {
    view: (key: string) => {
      reads.push(key);
      return views.get(key);
    },
  };
  const resources = ['Fresh', 'due', 'stale', 'new'].map(requested);
  const rendered = renderSearchResponse(resources, source, now);
  // The body is a view of a buffer the next rendering reuses.
  const body = rendered.body.toString();
  t.same(JSON.parse(body).data, [
    { platform: 'github', type: 'account', identifier: 'Fresh', status: 'available', metrics: {} },
    { platform: 'github', type: 'account', identifier: 'due', status: 'available', metrics: {} },
    { platform: 'github', type: 'account', identifier: 'stale', status: 'stale' },
    { platform: 'github', type: 'account', identifier: 'new', status: 'pending' },
  ]);
  t.same(rendered.wanted, ['github/account/due', 'github/account/new'], 'due a refresh, and unknown');
  t.same(
    reads,
    resources.map((resource) => resource.key),
    'one read per resource',
  );
  const again = renderSearchResponse(resources, source, now);
  t.same(again.body.toString(), body, 'rendering again gives the same answer: nothing changed');
  t.same(again.wanted, rendered.wanted);
});

t.test('search rendering - a warm answer wants nothing', async (t) => {
  const view: ResourceView = { entryEnd: ',"status":"available"}', refreshAfter: now + 1 };
  const rendered = renderSearchResponse([requested('a'), requested('b')], { view: () => view }, now);
  t.equal(rendered.wanted, undefined);
});

t.test('search rendering - an entry shows the view read now, after a change, and non-ASCII text as UTF-8', async (t) => {
  const views = new Map<string, ResourceView>([['github/account/a', { entryEnd: ',"status":"stale"}', refreshAfter: 0 }]]);
  const source = { view: (key: string) => views.get(key) };
  const resources = [requested('a'), requested('b')];
  t.equal(
    renderSearchResponse(resources, source, now).body.toString(),
    `{"data":[${resources[0]!.head},"status":"stale"},${resources[1]!.head},"status":"pending"}]}`,
  );
  views.set('github/account/a', { entryEnd: ',"status":"available","attributes":{"name":"Zoë ✓"}}', refreshAfter: now + 1 });
  views.set('github/account/b', { entryEnd: ',"status":"not_found"}', refreshAfter: 0 });
  const body = renderSearchResponse(resources, source, now).body;
  t.same(JSON.parse(body.toString()).data, [
    { platform: 'github', type: 'account', identifier: 'a', status: 'available', attributes: { name: 'Zoë ✓' } },
    { platform: 'github', type: 'account', identifier: 'b', status: 'not_found' },
  ]);
});

t.test('search rendering - an answer larger than the buffer it is assembled in, shown once and then again', async (t) => {
  const name = 'Ω'.repeat(3_000);
  const view: ResourceView = { entryEnd: `,"status":"available","attributes":{"name":"${name}"}}`, refreshAfter: now + 1 };
  const resources = ['l1', 'l2', 'l3', 'l4'].map(requested);
  const expected = resources.map(({ identifier }) => ({
    platform: 'github',
    type: 'account',
    identifier,
    status: 'available',
    attributes: { name },
  }));
  for (const time of ['first', 'second', 'third']) {
    const body = renderSearchResponse(resources, { view: () => view }, now).body;
    t.ok(body.length > 16_384, `${time}: over 16 KiB`);
    t.same(JSON.parse(body.toString()).data, expected, time);
  }
});
