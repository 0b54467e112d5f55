// Collectors fed the shapes the platforms publish in their own API documentation, beside our fixtures
// (docs/platforms.md#missing-fields, docs/platforms.md#not-found-means-the-platform-said-so).
import t from 'tap';
import type { ResourceRef } from '../model.js';
import { collectorWithFixtures, fixture, fixtureHttp, foundOutcome, reply, signal, unparsable } from '../../test/helpers/platforms.js';

const one = async (ref: ResourceRef, routes: Parameters<typeof fixtureHttp>[0]) =>
  (await collectorWithFixtures(ref.platform, fixtureHttp(routes)).collect([ref], signal))[0];

t.test('published shapes - instagram business discovery as in Meta reference example (no follows_count)', async (t) => {
  const outcome = await one({ platform: 'instagram', type: 'account', identifier: 'bluebottle' }, [
    [/business_discovery/, reply(200, fixture('instagram', 'business-discovery-reference.json'))],
  ]);
  t.same(outcome, foundOutcome({ followers: [267788, 'followers'], following: [null, 'following'], posts: [1205, 'posts'] }));
});

t.test('published shapes - x keeps a positive impression_count of a post from before view counting', async (t) => {
  const users = reply(200, fixture('x', 'users.json'));
  const tweets = reply(200, fixture('x', 'tweets-old-with-views.json'));
  const outcome = await one({ platform: 'x', type: 'post', identifier: 'xdevelopers:1460323737035677698' }, [
    [/users/, users],
    [/tweets/, tweets],
  ]);
  t.same(outcome, foundOutcome({ views: [7158, 'views'], likes: [1014, 'likes'], reposts: [233, 'reposts'], replies: [164, 'replies'] }));
});

t.test('published shapes - x: counts left out of public_metrics are null, the others kept', async (t) => {
  const body = JSON.stringify({ data: [{ id: '2244994945', username: 'XDevelopers', public_metrics: { followers_count: 5 } }] });
  const outcome = await one({ platform: 'x', type: 'account', identifier: 'xdevelopers' }, [[/users/, reply(200, body)]]);
  t.same(
    outcome,
    foundOutcome({ followers: [5, 'followers'], following: [null, 'following'], posts: [null, 'posts'] }, { verified: [null, 'verified'] }),
  );
});

t.test('published shapes - youtube: not_found only on a well-formed empty list; other 200s fail', async (t) => {
  const video: ResourceRef = { platform: 'youtube', type: 'post', identifier: 'dQw4w9WgXcQ' };
  const channel: ResourceRef = { platform: 'youtube', type: 'account', identifier: '@googledevelopers' };
  t.same(await one(video, [[/./, reply(200, fixture('youtube', 'videos-none.json'))]]), { kind: 'notFound' });
  t.same(await one(channel, [[/./, reply(200, fixture('youtube', 'channels-none.json'))]]), { kind: 'notFound' });
  t.same(await one(video, [[/./, reply(200, '{"kind":"youtube#videoListResponse","etag":"x"}')]]), unparsable, 'no pageInfo');
  t.same(
    await one(channel, [[/./, reply(200, '{"kind":"youtube#channelListResponse","pageInfo":{"totalResults":1,"resultsPerPage":5}}')]]),
    unparsable,
    'counts a result but carries no items',
  );
  t.same(await one(video, [[/./, reply(200, '{}')]]), unparsable);
  const noLikes = JSON.stringify({ pageInfo: { totalResults: 1 }, items: [{ id: 'dQw4w9WgXcQ', statistics: { viewCount: '10' } }] });
  t.same(
    await one(video, [[/./, reply(200, noLikes)]]),
    foundOutcome({ views: [10, 'views'], likes: [null, 'likes'], reposts: [null, 'reposts'], replies: [null, 'comments'] }),
  );
  const noVideoCount = JSON.stringify({
    pageInfo: { totalResults: 1 },
    items: [{ id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', statistics: { subscriberCount: '7' } }],
  });
  t.same(
    await one(channel, [[/./, reply(200, noVideoCount)]]),
    foundOutcome({ followers: [7, 'subscribers'], following: [null, 'following'], posts: [null, 'videos'] }),
  );
});

t.test('published shapes - github, bluesky, tiktok keep the counts present and null the rest', async (t) => {
  t.same(
    await one({ platform: 'github', type: 'account', identifier: 'octocat' }, [[/./, reply(200, '{"login":"octocat","followers":3}')]]),
    foundOutcome({ followers: [3, 'followers'], following: [null, 'following'], posts: [null, 'repositories'] }),
  );
  t.same(
    await one({ platform: 'github', type: 'post', identifier: 'octocat:hello-world' }, [[/./, reply(200, '{"forks_count":9}')]]),
    foundOutcome({ views: [null, 'views'], likes: [null, 'stars'], reposts: [9, 'forks'], replies: [null, 'replies'] }),
  );
  const profile = JSON.stringify({ profiles: [{ did: 'did:plc:z72i7hdynmk6r22z27h6tvur', handle: 'bsky.app', followersCount: 4 }] });
  t.same(
    await one({ platform: 'bluesky', type: 'account', identifier: 'bsky.app' }, [[/./, reply(200, profile)]]),
    foundOutcome({ followers: [4, 'followers'], following: [null, 'following'], posts: [null, 'posts'] }),
  );
  const page = fixture('tiktok', 'profile.html').replace(/"followingCount":\d+,/, '');
  t.same(
    await one({ platform: 'tiktok', type: 'account', identifier: 'scout2015' }, [[/./, reply(200, page)]]),
    foundOutcome({ followers: [1987423, 'followers'], following: [null, 'following'], posts: [212, 'videos'] }),
  );
  t.same(
    await one({ platform: 'github', type: 'account', identifier: 'octocat' }, [[/./, reply(200, '{"login":"octocat"}')]]),
    unparsable,
    'an answer with none of the counts is a failure',
  );
});

t.test("published shapes - youtube videos.list as in Google's getting-started example (items, no pageInfo) is found", async (t) => {
  const outcome = await one({ platform: 'youtube', type: 'post', identifier: '7lCDEYXw3mM' }, [
    [/videos\?part=statistics&id=7lCDEYXw3mM$/, reply(200, fixture('youtube', 'videos-without-page-info.json'))],
  ]);
  t.same(outcome, foundOutcome({ views: [3057, 'views'], likes: [25, 'likes'], reposts: [null, 'reposts'], replies: [12, 'comments'] }));
});
