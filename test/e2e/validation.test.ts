// Every 422 message of docs/api.md#errors and docs/api.md#a-40, docs/api.md#a-41, and the other refusals of the edge.
import t from 'tap';
import { searchPath, startTestService } from '../helpers/service.js';

const ref = (platform: unknown, type: unknown, identifier: unknown) => ({ platform, type, identifier });

t.test('validation - each message, all problems of a body at once', async (t) => {
  const { tokenFor, search } = await startTestService(t);
  const token = await tokenFor('alice', { plan: 'paid' });
  const invalid = async (body: unknown) => {
    const answer = await search(token, body);
    t.equal(answer.status, 422);
    t.equal(answer.headers.get('content-type'), 'application/json');
    return answer.body.errors as string[];
  };
  t.same(await invalid({}), ["Resources can't be blank"]);
  t.same(await invalid({ resources: [] }), ["Resources can't be blank"]);
  t.same(await invalid({ resources: null }), ["Resources can't be blank"]);
  t.same(await invalid({ resources: 'github' }), ['Resources must be an array of resource references']);
  t.same(await invalid([]), ['Request body must be a JSON object']);
  t.same(await invalid('"text"'), ['Request body must be a JSON object']);
  t.same(await invalid('{"resources": ['), ['Request body must be valid JSON']);
  t.same(await invalid('{"resources": [}'), ['Request body must be valid JSON']);
  t.same(await invalid('\u00a0'), ['Request body must be valid JSON'], 'a no-break space is not JSON whitespace');
  t.same(await invalid('null'), ['Request body must be a JSON object']);
  t.same(await invalid('42'), ['Request body must be a JSON object']);
  t.same(await invalid(''), ["Resources can't be blank"], 'an empty body');
  t.same(await invalid(' \r\n\t '), ["Resources can't be blank"], 'a body of whitespace');
  t.same(await invalid('{}'), ["Resources can't be blank"]);
  t.same(await invalid('{"resources": []}'), ["Resources can't be blank"]);
  t.same(await invalid({ resources: [ref('github', 'post', 'octocat')] }), [
    "Resources identifier 'octocat' is not valid on platform 'github': send the post as '<owner>:<repository>', not the URL (the owner of letters A-Z, digits and '-', the repository of letters A-Z, digits, '.', '_' and '-'); this one has no '<owner>:' part",
  ]);
  t.same(await invalid({ resources: [ref('myspace', 'account', 'tom')] }), [
    "Resources platform 'myspace' is not supported: use one of bluesky, facebook, github, instagram, lemmy, linkedin, mastodon, peertube, reddit, threads, tiktok, twitch, x, youtube",
  ]);
  t.same(await invalid({ resources: [ref('github', 'organization', 'octocat')] }), [
    "Resources type 'organization' is not supported on platform 'github'",
  ]);
  t.same(await invalid({ resources: [ref('x', 'community', 'jack')] }), ["Resources type 'community' is not supported on platform 'x'"]);
  t.same(await invalid({ resources: [ref('github', 'constructor', 'octocat')] }), [
    "Resources type 'constructor' is not supported on platform 'github'",
  ]);
  t.same(await invalid({ resources: [{ type: 'account' }] }), ["Resources platform can't be blank", "Resources identifier can't be blank"]);
  t.same(await invalid({ resources: [ref('github', '', 5)] }), ["Resources type can't be blank", 'Resources identifier must be a string']);
  t.same(await invalid({ resources: [7] }), ['Resources element 1 must be an object with platform, type and identifier']);
  t.same(
    await invalid({
      resources: [
        ref('github', 'account', 'https://github.com/octocat'),
        ref('github', 'account', 'octo cat'),
        ref('github', 'account', 'octocat#readme'),
        ref('github', 'account', 'octocat'),
      ],
    }),
    [
      "Resources identifier 'https://github.com/octocat' is not valid on platform 'github': send the plain username or id, not the URL (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one is a URL",
      "Resources identifier 'octo cat' is not valid on platform 'github': send the plain username or id, not the URL (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one contains a space",
      "Resources identifier 'octocat#readme' is not valid on platform 'github': send the plain username or id, not the URL (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one contains '#'",
    ],
    'every bad element is reported; the good one adds nothing',
  );
  t.same(await invalid({ resources: [ref('github', 'account', 'github.com/octocat'), ref('x', 'account', 'www.x.com')] }), [
    "Resources identifier 'github.com/octocat' is not valid on platform 'github': send the plain username or id, not the URL (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one is a URL",
    "Resources identifier 'www.x.com' is not valid on platform 'x': send the plain username or id, not the URL (without '@': up to 15 letters A-Z, digits and '_'); this one is a URL",
  ]);
  const eleven = Array.from({ length: 11 }, (_, i) => ref('github', 'account', `user${i}`));
  t.same(await invalid({ resources: eleven }), ['Resources is too long (maximum is 10 resources)']);
  const long = 'a'.repeat(5000);
  t.same(await invalid({ resources: [ref('github', 'account', long)] }), [
    `Resources identifier '${'a'.repeat(100)}...' is not valid on platform 'github': send the plain username or id, not the URL (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one is 5000 characters long, not 1 to 39`,
  ]);
  const ten = await search(token, { resources: eleven.slice(0, 10) });
  t.equal(ten.status, 200);
  t.equal(ten.body.data.length, 10);
});

t.test('validation - bodies over 1 MiB are refused with 413, declared or streamed', async (t) => {
  const { url, tokenFor } = await startTestService(t);
  const token = await tokenFor('alice', { plan: 'paid' });
  const big = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'x'.repeat(1024 * 1024) }] });
  const declared = await fetch(url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: big });
  t.equal(declared.status, 413);
  t.same(await declared.json(), { error: 'Request body exceeds the limit of 1048576 bytes' });
  const chunks = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 17; i++) controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      controller.close();
    },
  });
  const streamed = await fetch(url + searchPath, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: chunks,
    duplex: 'half',
  } as RequestInit);
  t.equal(streamed.status, 413);
});

t.test('validation - unknown paths and methods answer 404 and 405 in JSON', async (t) => {
  const { url } = await startTestService(t);
  const notFound = await fetch(`${url}/api/v1/nothing`);
  t.equal(notFound.status, 404);
  t.same(await notFound.json(), { error: 'No such endpoint: GET /api/v1/nothing' });
  const wrongMethod = await fetch(url + searchPath);
  t.equal(wrongMethod.status, 405);
  t.equal(wrongMethod.headers.get('allow'), 'POST');
  t.same(await wrongMethod.json(), { error: 'Method GET is not allowed here; use POST' });
  t.match(wrongMethod.headers.get('x-request-id'), /^[0-9a-f]{8}-[0-9a-z]+$/);
});

t.test('validation - an invalid identifier is told the rule it breaks', async (t) => {
  const { tokenFor, search } = await startTestService(t);
  const token = await tokenFor('hints', { plan: 'paid' });
  const message = async (platform: string, type: string, identifier: string) => {
    const answer = await search(token, { resources: [ref(platform, type, identifier)] });
    t.equal(answer.status, 422);
    return answer.body.errors[0];
  };
  const prefix = (identifier: string, platform: string) => `Resources identifier '${identifier}' is not valid on platform '${platform}': `;
  const account = 'send the plain username or id, not the URL';
  // Every platform and type (docs/api.md#a-40): what to send, then what is wrong with this one.
  const cases: Array<[string, string, string, string]> = [
    [
      'bluesky',
      'account',
      'alice',
      `${account} (the full handle, e.g. alice.bsky.social: labels of letters A-Z, digits and '-' joined by '.'); this one does not fit that form`,
    ],
    [
      'bluesky',
      'post',
      '3jwdwj2ctlk26',
      "send the post as '<handle>:<post_id>', not the URL (the handle with its full domain, e.g. alice.bsky.social, and the post id of 13 characters after /post/ in its address); this one has no '<handle>:' part",
    ],
    [
      'facebook',
      'account',
      'nasa',
      `${account} (5 to 50 letters A-Z, digits and '.', starting and ending with a letter or digit); this one is 4 characters long, not 5 to 50`,
    ],
    [
      'facebook',
      'account',
      'https://facebook.com/nasa',
      `${account} (5 to 50 letters A-Z, digits and '.', starting and ending with a letter or digit); this one is a URL`,
    ],
    [
      'facebook',
      'account',
      'nasa!gov',
      `${account} (5 to 50 letters A-Z, digits and '.', starting and ending with a letter or digit); this one contains '!', which is not allowed`,
    ],
    [
      'facebook',
      'account',
      '.nasa.',
      `${account} (5 to 50 letters A-Z, digits and '.', starting and ending with a letter or digit); this one does not fit that form`,
    ],
    [
      'github',
      'account',
      '-octocat',
      `${account} (up to 39 letters A-Z, digits and '-', not starting or ending with '-'); this one does not fit that form`,
    ],
    [
      'github',
      'post',
      'octocat/hello-world',
      "send the post as '<owner>:<repository>', not the URL (the owner of letters A-Z, digits and '-', the repository of letters A-Z, digits, '.', '_' and '-'); this one contains '/'",
    ],
    [
      'instagram',
      'account',
      'nasa..gov',
      `${account} (without '@': up to 30 letters A-Z, digits, '.' and '_', without a '.' at either end or two in a row); this one does not fit that form`,
    ],
    [
      'linkedin',
      'account',
      'in/satya-nadella',
      `${account} (the name after /in/ in its address: 3 to 100 letters A-Z, digits and '-', starting and ending with a letter or digit); this one contains '/'`,
    ],
    [
      'linkedin',
      'organization',
      'micro soft',
      `${account} (the name after /company/ in its address: letters A-Z, digits, '-', '_', '.' and '&', starting and ending with a letter or digit); this one contains a space`,
    ],
    [
      'threads',
      'account',
      '@zuck',
      `${account} (without '@': up to 30 letters A-Z, digits, '.' and '_', without a '.' at either end or two in a row); this one contains '@', which is not allowed`,
    ],
    [
      'threads',
      'post',
      'C8ZqKpYt7xY',
      "send the post as '<handle>:<code>', not the URL (the handle without '@', and the code after /post/ in its address or the numeric media id); this one has no '<handle>:' part",
    ],
    [
      'tiktok',
      'account',
      'a',
      `${account} (the name after @ in its address, without the '@': 2 to 24 letters A-Z, digits, '_' and '.', not ending with '.'); this one is 1 characters long, not 2 to 24`,
    ],
    ['x', 'account', 'jack smith', `${account} (without '@': up to 15 letters A-Z, digits and '_'); this one contains a space`],
    ['x', 'account', 'josé', `${account} (without '@': up to 15 letters A-Z, digits and '_'); this one contains 'é', which is not allowed`],
    [
      'x',
      'account',
      'elon-musk',
      `${account} (without '@': up to 15 letters A-Z, digits and '_'); this one contains '-', which is not allowed`,
    ],
    [
      'x',
      'post',
      '1460323737035677698',
      "send the post as '<handle>:<post_id>', not the URL (the username without '@', and the post id, the number after /status/ in its address); this one has no '<handle>:' part",
    ],
    [
      'x',
      'post',
      'jack:0123',
      "send the post as '<handle>:<post_id>', not the URL (the username without '@', and the post id, the number after /status/ in its address); this one does not fit that form",
    ],
    [
      'youtube',
      'account',
      '@mk',
      `${account} (a channel id, UC and 22 letters A-Z, digits, '_' or '-', or an @handle of 3 to 30 letters, digits, '_', '-' and '.'); this one does not fit that form`,
    ],
    [
      'youtube',
      'post',
      'mkbhd:dQw4w9WgXcQ',
      "send the video id only, without a channel name, not the URL (the 11 letters A-Z, digits, '_' and '-' after v= in its address); this one contains ':', which is not allowed",
    ],
    [
      'youtube',
      'post',
      'abc',
      "send the video id only, without a channel name, not the URL (the 11 letters A-Z, digits, '_' and '-' after v= in its address); this one is 3 characters long, not 11",
    ],
    [
      'youtube',
      'post',
      'https://youtu.be/dQw4w9WgXcQ',
      "send the video id only, without a channel name, not the URL (the 11 letters A-Z, digits, '_' and '-' after v= in its address); this one is a URL",
    ],
  ];
  for (const [platform, type, identifier, hint] of cases) {
    t.equal(await message(platform, type, identifier), prefix(identifier, platform) + hint, `${platform} ${type} ${identifier}`);
  }
});
