// The OpenAPI document: valid OpenAPI 3.1, generated from the schemas the server validates with,
// and matched by live answers of every status over real HTTP.
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t, { type Test } from 'tap';
import { openApiDocument } from '../../src/api/openapi.js';
import { answerExamples, searchRequestExample } from '../../src/api/openapiExamples.js';
import { validateSearch } from '../../src/api/validation.js';
import { limits } from '../../src/config.js';
import { identifierRules, platformCodes } from '../../src/platforms/registry.js';
import { openApiChecker, type OpenApiChecker } from '../helpers/openapi.js';
import { startPublicApp } from '../helpers/publicApp.js';
import { eventually, searchPath, startTestService, type SearchAnswer } from '../helpers/service.js';

const documentPath = '/api/v1/openapi.json';
const ref = (platform: string, type: string, identifier: string) => ({ platform, type, identifier });

async function fetchDocument(t: Test) {
  const url = await startPublicApp(t, { readiness: [] });
  const response = await fetch(url + documentPath);
  return { url, response, document: await response.json() };
}

t.test('openapi - GET /api/v1/openapi.json serves a valid OpenAPI 3.1 document', async (t) => {
  const { response, document } = await fetchDocument(t);
  t.equal(response.status, 200);
  t.equal(response.headers.get('content-type'), 'application/json');
  const validator = new Validator();
  const result = await validator.validate(document);
  t.same(result.errors, undefined, 'the validator finds no error');
  t.equal(result.valid, true);
  t.equal(validator.version, '3.1');
  t.same(document, JSON.parse(JSON.stringify(openApiDocument)), 'the served document is the generated one');
});

/** The served document with its references resolved, and Ajv to check values against its schemas. */
async function resolved() {
  const validator = new Validator();
  await validator.validate(JSON.parse(JSON.stringify(openApiDocument)));
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return { document: validator.resolveRefs() as Record<string, any>, ajv };
}

t.test('openapi - the request schema refers each reference to its platform, type and identifier syntax', async (t) => {
  const { document } = await fetchDocument(t);
  const { schemas } = document.components;
  const operation = document.paths['/api/v1/resources/search'].post;
  t.same(operation.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/SearchRequest' });
  t.same(Object.keys(operation.responses), ['200', '401', '403', '413', '422', '429', '500', '503']);
  t.same(schemas.SearchRequest.properties.resources, {
    type: 'array',
    items: { $ref: '#/components/schemas/ResourceReference' },
    minItems: 1,
    maxItems: limits.maxResourcesPerRequest,
  });
  t.same(schemas.ResourceReference.discriminator.propertyName, 'platform');
  t.same(Object.keys(schemas.ResourceReference.discriminator.mapping), [...platformCodes], 'one mapping per platform code');
  t.equal(schemas.ResourceReference.oneOf.length, platformCodes.length);
  t.same(schemas['Reference.x'].discriminator, {
    propertyName: 'type',
    mapping: { account: '#/components/schemas/Reference.x.account', post: '#/components/schemas/Reference.x.post' },
  });
  t.equal(schemas.ResourceReference.discriminator.mapping.github, '#/components/schemas/Reference.github');
  t.equal(
    schemas.ResourceReference.discriminator.mapping.facebook,
    '#/components/schemas/Reference.facebook.account',
    'one type: the pair itself',
  );
  for (const { platform, type, rule } of identifierRules) {
    const pair = schemas[`Reference.${platform}.${type}`];
    t.same(
      pair.properties,
      {
        platform: { type: 'string', enum: [platform] },
        type: { type: 'string', enum: [type] },
        identifier: { $ref: `#/components/schemas/Identifier.${platform}.${type}` },
      },
      `${platform} ${type}: platform and type as enums, the identifier by reference`,
    );
    const identifier = schemas[`Identifier.${platform}.${type}`];
    t.same(
      {
        pattern: identifier.pattern,
        minLength: identifier.minLength,
        maxLength: identifier.maxLength,
        description: identifier.description,
      },
      { pattern: rule.pattern.source, minLength: rule.minLength, maxLength: rule.maxLength, description: `${rule.hint} (${rule.syntax})` },
      `${platform} ${type}: the syntax the server checks, with its hint`,
    );
  }
});

t.test('openapi - the published request schema accepts exactly what the server accepts', async (t) => {
  const { document, ajv } = await resolved();
  const published = ajv.compile(document.components.schemas.SearchRequest);
  const agree = (body: unknown, label: string) => {
    const accepted = validateSearch(body).ok;
    t.equal(published(body), accepted, `${label}: ${accepted ? 'accepted' : 'refused'} by both`);
  };
  const one = (platform: string, type: string, identifier: string) => ({ resources: [{ platform, type, identifier }] });
  for (const { platform, type, rule } of identifierRules) {
    agree(one(platform, type, rule.examples.valid), `${platform} ${type} ${rule.examples.valid}`);
    for (const invalid of rule.examples.invalid) agree(one(platform, type, invalid), `${platform} ${type} ${invalid}`);
  }
  agree(one('myspace', 'account', 'tom'), 'an unknown platform');
  agree(one('github', 'organization', 'octocat'), 'a type the platform does not take');
  agree(one('x', 'community', 'jack'), 'a community on a platform without communities');
  agree(one('x', 'account', 'jack smith'), 'an identifier with a space');
  agree({ resources: [] }, 'no references');
  agree({ resources: Array.from({ length: 11 }, (_, i) => ({ platform: 'github', type: 'account', identifier: `user${i}` })) }, 'eleven');
  agree(searchRequestExample, 'the request example');
});

t.test('openapi - every example matches its schema, and the refusals are the live ones', async (t) => {
  const { document, ajv } = await resolved();
  const operation = document.paths['/api/v1/resources/search'].post;
  const request = operation.requestBody.content['application/json'];
  t.same(ajv.validate(request.schema, request.example) ? [] : ajv.errors, [], 'the request example');
  for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
    const json = response.content['application/json'];
    t.not(json.example, undefined, `${status} has an example`);
    t.same(ajv.validate(json.schema, json.example) ? [] : ajv.errors, [], `the ${status} example matches its schema`);
  }
  t.same(document.servers[0], { url: '/', description: 'The server that serves this document' });
  t.match(operation.description, /^Looks up 1 to 10 resources\. /);

  const { tokenFor, search } = await startTestService(t);
  t.same((await search(undefined, searchRequestExample)).body, answerExamples.unauthorized, 'the 401 example is the live body');
  const token = await tokenFor('examples', { plan: 'paid' });
  const refused = await search(token, {
    resources: [
      { platform: 'myspace', type: 'account', identifier: 'tom' },
      { platform: 'x', type: 'account', identifier: 'jack smith' },
    ],
  });
  t.same(refused.body, answerExamples.invalid, 'the 422 example is the live body');
  t.same(answerExamples.invalid.errors, [
    "Resources platform 'myspace' is not supported: use one of bluesky, facebook, github, instagram, lemmy, linkedin, mastodon, peertube, reddit, threads, tiktok, twitch, x, youtube",
    "Resources identifier 'jack smith' is not valid on platform 'x': send the plain username or id, not the URL (without '@': up to 15 letters A-Z, digits and '_'); this one contains a space",
  ]);
  const answered = await search(token, searchRequestExample);
  t.same(
    answered.body.data.map(({ platform, type, identifier }: Record<string, string>) => ({ platform, type, identifier })),
    searchRequestExample.resources,
    'the request example is a valid search',
  );
});

t.test('openapi - live search answers of every status match the document', async (t) => {
  const { document } = await fetchDocument(t);
  const checker = await openApiChecker(document);
  const { tokenFor, search } = await startTestService(t);
  const expectMatch = (label: string, answer: SearchAnswer, status: number) => {
    t.equal(answer.status, status, `${label}: status`);
    t.same(checker.check({ method: 'POST', path: searchPath, ...answer }), [], `${label}: matches the document`);
  };

  expectMatch('401 without a token', await search(undefined, { resources: [] }), 401);
  expectMatch('401 with an unknown token', await search('dp_unknown', { resources: [] }), 401);

  // Room for the polling below on a slow machine, and a quota so that its headers are checked too.
  const token = await tokenFor('alice', { quota: 10_000, rate: { limit: 10_000, windowMs: 60_000 } });
  const resources = [
    ref('github', 'account', 'Octocat'),
    ref('github', 'post', 'octocat:Hello-World'),
    ref('github', 'account', 'missing-user'),
    ref('github', 'account', 'flaky-user'),
    ref('x', 'account', 'jack'),
  ];
  const pending = await search(token, { resources });
  t.same(
    pending.body.data.map((entry: { status: string }) => entry.status),
    ['pending', 'pending', 'pending', 'pending', 'pending'],
  );
  expectMatch('200 pending', pending, 200);
  const settled = await eventually(
    () => search(token, { resources }),
    (answer) => answer.body.data.every((entry: { status: string }) => entry.status !== 'pending'),
  );
  t.same(
    settled.body.data.map((entry: { status: string }) => entry.status),
    ['available', 'available', 'not_found', 'unavailable', 'available'],
  );
  t.equal(typeof settled.body.data[4].attributes.verified.value, 'boolean', 'an x account carries its verified attribute');
  expectMatch('200 available, not_found and unavailable, with metrics and attributes', settled, 200);

  expectMatch('422 blank resources', await search(token, { resources: [] }), 422);
  expectMatch('422 not JSON', await search(token, '{"resources": ['), 422);
  expectMatch('413 too large', await search(token, `{"resources":"${'x'.repeat(limits.maxBodyBytes)}"}`), 413);

  const quotaToken = await tokenFor('quota-one', { quota: 1 });
  expectMatch('200 counted against a quota', await search(quotaToken, { resources: [resources[0]] }), 200);
  expectMatch('403 quota exhausted', await search(quotaToken, { resources: [resources[0]] }), 403);

  const rateToken = await tokenFor('rate-one', { quota: null, rate: { limit: 1, windowMs: 60_000 } });
  expectMatch('200 without a quota', await search(rateToken, { resources: [resources[0]] }), 200);
  expectMatch('429 rate limited', await search(rateToken, { resources: [resources[0]] }), 429);
});

t.test('openapi - the public answers match the document', async (t) => {
  const { url, document } = await fetchDocument(t);
  const checker: OpenApiChecker = await openApiChecker(document);
  for (const path of [documentPath, '/healthz', '/readyz']) {
    const response = await fetch(url + path);
    const answer = { method: 'GET', path, status: response.status, headers: response.headers, body: await response.json() };
    t.equal(answer.status, 200, `${path}: status`);
    t.same(checker.check(answer), [], `${path}: matches the document`);
  }
});

t.test('openapi - the checker reports answers that depart from the document', async (t) => {
  const checker = await openApiChecker(JSON.parse(JSON.stringify(openApiDocument)));
  const limitHeaders = {
    'content-type': 'application/json',
    'x-request-id': 'r-1',
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': '1790000000',
  };
  const post = (status: number, headers: Record<string, string>, body: unknown) =>
    checker.check({ method: 'POST', path: searchPath, status, headers: new Headers(headers), body });
  const entry = { platform: 'github', type: 'account', identifier: 'octocat', status: 'pending' };
  t.same(post(200, limitHeaders, { data: [entry] }), [], 'a matching answer has no problem');
  t.match(post(200, limitHeaders, { data: [{ ...entry, extra: 1 }] }), [/^body: .*must NOT have additional properties/]);
  t.match(post(200, limitHeaders, { data: [{ ...entry, status: 'gone' }] }), [/^body: .*must be equal to one of the allowed values/]);
  t.match(
    post(200, limitHeaders, {
      data: [
        {
          ...entry,
          status: 'available',
          metrics: { likes: { value: 1, status: 'available', collected_at: 'yesterday', semantic: 'likes' } },
        },
      ],
    }),
    [/^body: .*must match format "date-time"/],
  );
  t.same(post(200, { ...limitHeaders, 'x-ratelimit-remaining': 'many' }, { data: [] }), [
    "header x-ratelimit-remaining 'many': data must be integer",
  ]);
  t.same(post(200, { ...limitHeaders, 'x-ratelimit-limit': '-1' }, { data: [] }), ["header x-ratelimit-limit '-1': data must be >= 0"]);
  const { 'x-ratelimit-reset': _reset, ...withoutReset } = limitHeaders;
  t.same(post(200, withoutReset, { data: [] }), ['header x-ratelimit-reset is missing']);
  t.same(post(200, { ...limitHeaders, 'x-secret': '1' }, { data: [] }), ['header x-secret is not documented for 200']);
  t.same(post(418, limitHeaders, { error: 'teapot' }), ['POST /api/v1/resources/search: status 418 is not documented']);
  t.same(post(401, { 'content-type': 'application/json', 'x-request-id': 'r-2' }, { error: 'no' }), ['header www-authenticate is missing']);
});
