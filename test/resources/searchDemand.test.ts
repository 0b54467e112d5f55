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
  t.same(JSON.parse(rendered.body).data, [
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
  t.same(renderSearchResponse(resources, source, now), rendered, 'rendering again gives the same answer: nothing changed');
});

t.test('search rendering - a warm answer wants nothing', async (t) => {
  const view: ResourceView = { entryEnd: ',"status":"available"}', refreshAfter: now + 1 };
  const rendered = renderSearchResponse([requested('a'), requested('b')], { view: () => view }, now);
  t.equal(rendered.wanted, undefined);
});
