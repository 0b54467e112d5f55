// Generators of hostile search requests (fast-check): random and near-valid bodies, wrong
// types, deep nesting, huge strings, invalid UTF-8, duplicate and prototype keys, and wrong,
// missing or bad credentials. Each request says whether its credentials should pass.
import fc from 'fast-check';
import { resourceTypes } from '../../src/model.js';
import { identifierRules, platformCodes } from '../../src/platforms/registry.js';
import { sampleIdentifier } from '../faults/samples.js';

export interface HostileRequest {
  headers: Record<string, string>;
  body: Buffer;
  /** Whether the Authorization header carries the valid token as a Bearer credential. */
  authorized: boolean;
}

const samples = identifierRules.map(({ platform, type, rule }) => ({ platform, type, identifier: sampleIdentifier(rule, 0) }));

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '../../etc/passwd',
    'octocat/../admin',
    'octocat?x=1',
    'octocat#frag',
    '%2e%2e%2f',
    'octo%2Fcat',
    'https://github.com/octocat',
    'octo cat',
    '\u0000',
    '\ud800',
    'a'.repeat(100_000),
    '__proto__',
    'constructor',
    'toString',
    '',
    ' ',
    'null',
  ),
);

const anyValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

const nearValidReference = fc
  .tuple(fc.constantFrom(...samples), fc.integer({ min: 0, max: 11 }), anyValue, fc.constantFrom(...platformCodes, ...resourceTypes))
  .map(([sample, mutation, value, code]) => {
    const reference: Record<string, unknown> = { ...sample };
    switch (mutation) {
      case 0:
        return reference;
      case 1:
        reference.platform = value;
        return reference;
      case 2:
        reference.type = value;
        return reference;
      case 3:
        reference.identifier = value;
        return reference;
      case 4:
        delete reference.platform;
        return reference;
      case 10:
        delete reference.type;
        return reference;
      case 11:
        delete reference.identifier;
        return reference;
      case 5:
        reference.type = code;
        return reference;
      case 6:
        reference.platform = code;
        return reference;
      case 7:
        reference.extra = value;
        return reference;
      case 8:
        return value;
      default:
        reference.identifier = `${sample.identifier}${typeof value === 'string' ? value : ''}`;
        return reference;
    }
  });

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'undefined');

const body: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: fc.array(nearValidReference, { maxLength: 13 }).map((resources) => json({ resources })) },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...samples), { minLength: 1, maxLength: 10 }).map((resources) => json({ resources })) },
  { weight: 1, arbitrary: fc.jsonValue().map(json) },
  { weight: 1, arbitrary: anyValue.map((resources) => json({ resources })) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 50_000 }).map((depth) => Buffer.from(`{"resources":${'['.repeat(depth)}${']'.repeat(depth)}}`)),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 5_000 }).map((depth) => Buffer.from(`${'{"resources":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ minLength: 1, maxLength: 8 })
      .map((bytes) =>
        Buffer.concat([
          Buffer.from('{"resources":[{"platform":"github","type":"account","identifier":"'),
          Buffer.from(bytes).map((byte) => byte | 0x80),
          Buffer.from('"}]}'),
        ]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '{"resources":[],"resources":[{"platform":"github","type":"account","identifier":"octocat"}]}',
        '{"resources":[{"platform":"github","platform":"nope","type":"account","identifier":"octocat"}]}',
        '{"__proto__":{"resources":[{"platform":"github","type":"account","identifier":"octocat"}]}}',
        '{"resources":[{"__proto__":{"platform":"github"},"type":"account","identifier":"octocat"}]}',
        '{"resources":{"__proto__":[],"length":1,"0":{"platform":"github","type":"account","identifier":"octocat"}}}',
        '{"constructor":{"prototype":{"polluted":true}},"resources":[{"platform":"github","type":"constructor","identifier":"x"}]}',
        '{"resources":[{"platform":"__proto__","type":"account","identifier":"x"}]}',
        '{"resources":[{"platform":"github","type":"hasOwnProperty","identifier":"x"}]}',
        '',
        ' ',
        'null',
        '[]',
        '"resources"',
        '{"resources":null}',
        '{"resources"',
        '\u0000',
        '{"resources":[1e999]}',
      )
      .map((text) => Buffer.from(text)),
  },
);

const credentials = (token: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant({ header: `Bearer ${token}`, authorized: true }) },
    { weight: 1, arbitrary: fc.constant({ header: `bearer ${token}`, authorized: true }) },
    { weight: 1, arbitrary: fc.constant({ header: undefined, authorized: false }) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.constant(`Basic ${token}`),
          fc.constant(`Bearer`),
          fc.constant(`Bearer `),
          fc.constant(token),
          fc.constant(`Bearer ${token}x`),
          fc.constant(`Bearer ${token.slice(0, -1)}`),
          fc.constant(`Bearer ${'x'.repeat(8_000)}`),
          fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~+/= '.split('')), maxLength: 60 }).map((text) => `Bearer ${text}`),
          fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.~+/= '.split('')), maxLength: 60 }),
        )
        .map((header) => ({ header, authorized: false })),
    },
  );

const contentType = fc.constantFrom<string | undefined>(
  'application/json',
  'application/json',
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'garbage/;;;',
);

export function hostileRequests(token: string, count: number, seed: number): HostileRequest[] {
  const request = fc.tuple(credentials(token), contentType, body).map(([auth, type, payload]) => ({
    headers: {
      ...(auth.header === undefined ? {} : { authorization: auth.header }),
      ...(type === undefined ? {} : { 'content-type': type }),
    },
    body: payload,
    authorized: auth.authorized,
  }));
  return fc.sample(request, { numRuns: count, seed });
}
