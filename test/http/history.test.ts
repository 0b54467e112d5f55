// POST /api/v1/resources/history in process (docs/history.md#api): admitted and counted as a
// search, the search's 422s plus the range's and interval's, a reference never searched starting
// its collection, and the same answer as JSON or CSV.
import t from 'tap';
import { csvField, type HistoryEntry, historyCsv, historyJson } from '../../src/api/historyResponse.js';
import { wantsCsv } from '../../src/http/historyRoute.js';
import { eventually, startTestService, type TestService } from '../helpers/service.js';

const historyPath = '/api/v1/resources/history';
const octocat = { platform: 'github', type: 'account', identifier: 'octocat' };

async function history(ts: TestService, token: string, body: unknown, accept = 'application/json') {
  const response = await fetch(ts.url + historyPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined,
  };
}

t.test('history route - a reference never searched starts collecting, then answers its series', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const first = await history(ts, token, { resources: [octocat] });
  t.equal(first.status, 200);
  t.same(first.body, { data: [{ ...octocat, status: 'pending' }] }, 'no series yet, status as the search gives it');
  const collected = await eventually(
    () => history(ts, token, { resources: [octocat], interval: 'collection' }),
    (answer) => answer.body.data[0].status === 'available',
  );
  const search = await ts.search(token, { resources: [octocat] });
  const { followers } = search.body.data[0].metrics;
  t.same(collected.body.data[0].metrics.followers, {
    series: [{ at: followers.collected_at, value: followers.value }],
    first: followers.value,
    last: followers.value,
    change: 0,
  });
  const daily = await history(ts, token, { resources: [octocat] });
  t.same(
    daily.body.data[0].metrics.followers.series,
    [{ at: followers.collected_at.slice(0, 10), value: followers.value }],
    'one point for today',
  );
  const csv = await history(ts, token, { resources: [octocat] }, 'text/csv');
  t.equal(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.match(csv.text, `\r\ngithub,account,octocat,available,metrics,followers,${followers.collected_at.slice(0, 10)},${followers.value}\r\n`);
});

t.test('history route - counted against the quota as a search is, with the same refusal', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('acme', { quota: 2 });
  t.equal((await history(ts, token, { resources: [octocat] })).status, 200);
  t.equal((await ts.search(token, { resources: [octocat] })).status, 200);
  const refused = await history(ts, token, { resources: [octocat] });
  const searchRefused = await ts.search(token, { resources: [octocat] });
  t.equal(refused.status, 403);
  t.same(refused.body, searchRefused.body, "the search's message");
  t.equal(refused.headers.get('x-ratelimit-limit'), searchRefused.headers.get('x-ratelimit-limit'));
});

t.test('history route - 422: the search messages, then the range and the interval', async (t) => {
  const ts = await startTestService(t);
  const token = await ts.tokenFor('acme', { plan: 'paid' });
  const errors = async (body: unknown) => {
    const answer = await history(ts, token, body);
    t.equal(answer.status, 422);
    return answer.body.errors;
  };
  t.same(await errors({}), ["Resources can't be blank"]);
  t.same(await errors({ resources: [octocat], interval: 'week' }), ["Interval must be 'day' or 'collection'"]);
  t.same(await errors({ resources: [octocat], from: '12 Nov' }), [
    'From must be an ISO 8601 date (2026-11-12) or date-time with its zone (2026-11-12T08:00:00Z)',
  ]);
  t.same(await errors({ resources: [octocat], from: '2026-11-20', to: '2026-11-10' }), ['From must not be after to']);
  const edge = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 400 * 86_400_000);
  t.same(await errors({ resources: [octocat], from: '2000-01-01' }), [
    `From is before the history kept (400 days): give ${edge.toISOString().slice(0, 10)} or later`,
  ]);
});

t.test('history CSV - RFC 4180 quoting, one row for a reference without a series', async (t) => {
  t.equal(csvField('plain'), 'plain');
  t.equal(csvField('a,b'), '"a,b"');
  t.equal(csvField('say "hi"'), '"say ""hi"""');
  t.equal(csvField('two\nlines'), '"two\nlines"');
  const csv = historyCsv([
    { platform: 'github', type: 'account', identifier: 'x,"y"', status: 'pending', datapoints: [] },
    {
      platform: 'github',
      type: 'account',
      identifier: 'octocat',
      status: 'available',
      datapoints: [
        {
          group: 'metrics',
          name: 'followers',
          series: [
            { at: '2026-11-12', value: 5 },
            { at: '2026-11-13', value: null },
          ],
          first: 5,
          last: null,
          change: null,
        },
      ],
    },
  ]);
  t.equal(
    csv,
    'platform,type,identifier,status,group,datapoint,at,value\r\n' +
      'github,account,"x,""y""",pending,,,,\r\n' +
      'github,account,octocat,available,metrics,followers,2026-11-12,5\r\n' +
      'github,account,octocat,available,metrics,followers,2026-11-13,\r\n',
  );
  t.equal(wantsCsv('text/csv'), true);
  t.equal(wantsCsv('application/json, text/csv;q=0.5'), true);
  t.equal(wantsCsv('*/*'), false);
  t.equal(wantsCsv('text/csvx'), false);
});

t.test('history JSON - written piece by piece, the same text as JSON.stringify of the entries by group', async (t) => {
  const entries: HistoryEntry[] = [
    { platform: 'github', type: 'account', identifier: 'x"\\y', status: 'pending', datapoints: [] },
    {
      platform: 'youtube',
      type: 'channel',
      identifier: 'UC1',
      status: 'available',
      datapoints: [
        {
          group: 'metrics',
          name: 'subscribers',
          series: [
            { at: '2026-11-12', value: 5 },
            { at: '2026-11-13', value: 7.5 },
          ],
          first: 5,
          last: 7.5,
          change: 2.5,
        },
        { group: 'attributes', name: 'verified', series: [{ at: '2026-11-12', value: true }], first: true, last: true, change: null },
        {
          group: 'metrics',
          name: 'views',
          series: [{ at: '2026-11-13T08:00:00.000Z', value: null }],
          first: null,
          last: null,
          change: null,
        },
      ],
    },
  ];
  const grouped = {
    data: entries.map(({ datapoints, ...reference }) => {
      const groups: Record<string, Record<string, unknown>> = {};
      for (const { group, name, ...rest } of datapoints) groups[group] = { ...groups[group], [name]: rest };
      return { ...reference, ...groups };
    }),
  };
  t.equal(historyJson(entries), JSON.stringify(grouped));
});
