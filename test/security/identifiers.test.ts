// Identifiers can never change the upstream URL (docs/api.md#a-5): whatever a caller
// sends is either refused with 422 before any upstream request, or lands percent-encoded in
// its one place of the platform's URL and decodes back to exactly the (normalized) identifier.
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { identifierSyntax } from '../../src/api/schema.js';
import { identifierProblem, validateSearch } from '../../src/api/validation.js';
import { limits } from '../../src/config.js';
import { eventually, startTestService, type SearchAnswer } from '../helpers/service.js';
import { canaryOf, rules, type Rule } from './canaries.js';
import { recordingUpstream, type RecordingUpstream } from './recordingUpstream.js';
import { expectedParts, readTarget, type Part } from './upstreamTargets.js';

/**
 * Strings that must never reach an upstream on any platform, wherever they sit in an
 * identifier: path separators and dot segments, their encodings, query and fragment syntax,
 * whitespace and controls (header injection), slash and dot look-alikes, URLs of other hosts.
 */
const hostile = [
  '/',
  '../',
  '/..',
  './',
  '..\\',
  '\\',
  '%2F',
  '%2f',
  '%2e%2e',
  '%2E%2E%2F',
  '%252F',
  '%00',
  '%',
  '?',
  '?admin=1',
  '#',
  '#top',
  '&access_token=x',
  '=',
  ';',
  ',',
  ':',
  ' ',
  '\t',
  '\n',
  '\r\nX-Injected: 1',
  '\u0000',
  '\u007f',
  '\u00a0',
  '\u3000',
  '\u200b',
  '\u2215',
  '\u2044',
  '\uff0f',
  '\uff03',
  '\uff1f',
  '\u202e',
  '\ud800',
  '\udfff',
  'https://evil.example/',
  '//evil.example',
  'x@evil.example',
];

/** Every place a hostile string can take in a well-formed identifier: alone, before, inside, after. */
function placements(canary: string, piece: string): string[] {
  const middle = Math.floor(canary.length / 2);
  return [piece, piece + canary, canary.slice(0, middle) + piece + canary.slice(middle), canary + piece];
}

/** Whole-segment dot names, and posts whose id part is one, where a path could take them. */
const dotSegments = (rule: Rule) => {
  const handle = canaryOf(rule).split(':')[0]!;
  return ['.', '..', ...(rule.type === 'post' ? [`${handle}:.`, `${handle}:..`] : [])];
};

const invalidMessage = ({ platform, rule }: Rule, identifier: string) => {
  const echo = identifier.length > limits.maxEchoedIdentifier ? `${identifier.slice(0, limits.maxEchoedIdentifier)}...` : identifier;
  return `Resources identifier '${echo}' is not valid on platform '${platform}': ${identifierProblem(rule, identifier)}`;
};

/** Emulator conventions (docs/operations.md#emulator) that would skip or delay an upstream call. */
const conventional = ({ rule }: Rule, identifier: string) => /^(missing|flaky|slow)/.test(rule.namePart(rule.normalize(identifier)));

interface Lookup {
  rule: Rule;
  identifier: string;
}

async function setUp(t: Test) {
  const upstream = await recordingUpstream(t);
  const service = await startTestService(t, { upstream: upstream.url });
  const token = await service.tokenFor('prober', { quota: null, rate: { limit: 1_000_000, windowMs: 60_000 } });
  const lookup = (lookups: Lookup[]) =>
    service.search(token, { resources: lookups.map(({ rule, identifier }) => ({ platform: rule.platform, type: rule.type, identifier })) });
  return { upstream, lookup, token };
}

/**
 * Sends the lookups ten to a request, a few requests at a time (every request is counted
 * and durable before its answer, so one per identifier would make this slow); returns a
 * line for each answer that is not `expected`.
 */
async function lookUpAll(
  lookup: (lookups: Lookup[]) => Promise<SearchAnswer>,
  lookups: Lookup[],
  expected: (chunk: Lookup[]) => { status: number; body?: unknown },
): Promise<string[]> {
  const chunks = Array.from({ length: Math.ceil(lookups.length / 10) }, (_, index) => lookups.slice(index * 10, index * 10 + 10));
  const problems: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        const answer = await lookup(chunk);
        const wanted = expected(chunk);
        if (answer.status !== wanted.status || (wanted.body !== undefined && JSON.stringify(answer.body) !== JSON.stringify(wanted.body))) {
          const sent = chunk.map(({ rule, identifier }) => `${rule.platform}/${rule.type} ${JSON.stringify(identifier)}`).join(', ');
          problems.push(`[${sent}]: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    }),
  );
  return problems;
}

const refusedWith = (chunk: Lookup[]) => ({
  status: 422,
  body: { errors: chunk.map(({ rule, identifier }) => invalidMessage(rule, identifier)) },
});
const acceptedWith = () => ({ status: 200 });
const isValid = ({ rule, identifier }: Lookup) => identifierSyntax(rule.platform, rule.type)!.isValid(identifier);

/** Waits until the upstream has seen every expected part, then reads every target it got. */
async function upstreamParts(upstream: RecordingUpstream, expected: Set<Part>) {
  const read = () => {
    const unreadable: string[] = [];
    const seen = new Set<Part>();
    for (const target of upstream.targets) {
      const parts = readTarget(target)?.parts;
      if (parts === undefined) unreadable.push(target);
      for (const part of parts ?? []) seen.add(part);
    }
    return { unreadable, seen };
  };
  // About a thousand collections: a minute bounds a hung collector, not a slow machine (under
  // load 16 they took more than 10 s).
  await eventually(
    async () => read().seen,
    (seen) => [...expected].every((part) => seen.has(part)),
    60_000,
  );
  return read();
}

const sorted = (parts: Iterable<Part>) => [...parts].sort();

t.test('identifiers - every refusal on every platform and type says what to send, then what is wrong', async (t) => {
  // docs/api.md#identifier-hints, for every rule a platform folder declares.
  const refusal = ({ platform, type }: Rule, identifier: string) => {
    const validation = validateSearch({ resources: [{ platform, type, identifier }] });
    return validation.ok ? 'accepted' : validation.errors[0];
  };
  for (const rule of rules) {
    const { platform, type } = rule;
    const opening = `Resources identifier '%s' is not valid on platform '${platform}': ${rule.rule.hint} (${rule.rule.syntax}); this one `;
    const expect = (identifier: string, problem: string) =>
      t.equal(refusal(rule, identifier), opening.replace('%s', identifier) + problem, `${platform} ${type} ${JSON.stringify(identifier)}`);
    t.match(rule.rule.hint, /^send .*, not the URL$/, `${platform} ${type}: the hint says what to send`);
    const valid = canaryOf(rule);
    expect(`https://example.com/${valid}`, 'is a URL');
    expect(`${valid} x`, 'contains a space');
    expect(`${valid}?x`, "contains '?'");
    if (rule.rule.authorPart) expect(valid.slice(valid.indexOf(':') + 1), `has no '${rule.rule.authorPart}:' part`);
    if (!rule.rule.allowedCharacter.test('é')) expect(`${valid.slice(0, -1)}é`, "contains 'é', which is not allowed");
    if (!rule.rule.allowedCharacter.test(':')) expect(`channel:${valid}`, "contains ':', which is not allowed");
  }
});

t.test(
  'identifiers - traversal, query, fragment, encoded, unicode and whitespace forms are refused with 422 before any upstream call',
  async (t) => {
    const { upstream, lookup } = await setUp(t);
    const cases = rules.flatMap((rule) =>
      [...hostile.flatMap((piece) => placements(canaryOf(rule), piece)), ...dotSegments(rule)].map((identifier) => ({ rule, identifier })),
    );
    t.same(await lookUpAll(lookup, cases, refusedWith), [], `all ${cases.length} hostile identifiers are refused with their 422 messages`);

    // One bad identifier refuses the whole request: its well-formed neighbour is not collected either.
    const github = rules.find((rule) => rule.platform === 'github' && rule.type === 'account')!;
    const halfBad = await lookup([
      { rule: github, identifier: 'never-collected' },
      { rule: github, identifier: '../admin' },
    ]);
    t.equal(halfBad.status, 422, 'a request with one bad identifier is refused whole');

    // The canaries go last; once the upstream has seen them, anything refused would have shown.
    const canaryParts = new Set(rules.flatMap((rule) => expectedParts(rule.platform, rule.type, rule.rule.normalize(canaryOf(rule)))));
    // Ten to a request, the most one search takes.
    for (const batch of Array.from({ length: Math.ceil(rules.length / 10) }, (_, index) => rules.slice(index * 10, index * 10 + 10))) {
      const answer = await lookup(batch.map((rule) => ({ rule, identifier: canaryOf(rule) })));
      t.equal(answer.status, 200, 'canaries accepted');
    }
    const { unreadable, seen } = await upstreamParts(upstream, canaryParts);
    t.same(unreadable, [], 'every upstream request has its platform shape');
    t.same(sorted(seen), sorted(canaryParts), 'the upstream saw the canaries and nothing else');
  },
);

/**
 * Generators of well-formed identifiers: the rule's own pattern, or, where it uses lookaround
 * (which fast-check cannot generate from), a looser shape that the rule then filters.
 */
const looseShapes: Record<string, RegExp> = {
  'github/post': /^[A-Za-z0-9][A-Za-z0-9-]{0,10}:[A-Za-z0-9._-]{1,30}$/,
  'instagram/account': /^[A-Za-z0-9._]{1,30}$/,
  'threads/account': /^[A-Za-z0-9._]{1,30}$/,
  'threads/post': /^[A-Za-z0-9._]{1,30}:(?:[0-9]{1,25}|[A-Za-z0-9_-]{1,40})$/,
  'bluesky/account': /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,8}[A-Za-z0-9])?\.){1,3}[A-Za-z][A-Za-z0-9-]{0,8}[A-Za-z0-9]$/,
  'bluesky/post':
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,8}[A-Za-z0-9])?\.){1,3}[A-Za-z][A-Za-z0-9-]{0,8}[A-Za-z0-9]:[234567a-j][234567a-z]{12}$/,
  // Federated hosts (src/platforms/federated.ts): ASCII here; edgeCases hold internationalized ones.
  'mastodon/account': /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}@(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}$/,
  'lemmy/account': /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}@(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}$/,
  'lemmy/community': /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}@(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}$/,
  'lemmy/post': /^(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}:[0-9]{1,19}$/,
  'peertube/account': /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}@(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}$/,
  'peertube/post': /^(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}:(?:[0-9]{1,10}|[1-9A-HJ-NP-Za-km-z]{22})$/,
  'mastodon/post':
    /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}@(?:[A-Za-z0-9][A-Za-z0-9-]{0,8}\.){1,3}[A-Za-z]{2,8}:(?:[0-9]{1,19}|[0-9A-HJKMNP-TV-Z]{26})$/,
};

const wellFormed = (rule: Rule) => fc.stringMatching(looseShapes[`${rule.platform}/${rule.type}`] ?? rule.rule.pattern);

/**
 * Characters legal on some platform, with now and then one that is legal nowhere or only in
 * some places: each such identifier is either refused or encoded.
 */
const legalPieces = ['a', 'Z', '0', '7', '.', '-', '_', '&', '\u00e9', '\u0130', '\u0301', '\u0663', '\u2167', '\u{1d7f7}'];
const riskyPieces = ['..', ':', '@', '/', '?', '#', '%', '%2F', ' ', '\t', '=', '+', ',', "'", '\uff0f', '\u00a0'];
const mixed = (rule: Rule) =>
  fc
    .tuple(
      fc.constantFrom('', `${canaryOf(rule).split(':')[0]!}:`),
      fc.array(
        fc.oneof({ arbitrary: fc.constantFrom(...legalPieces), weight: 8 }, { arbitrary: fc.constantFrom(...riskyPieces), weight: 1 }),
        { minLength: 1, maxLength: 12 },
      ),
    )
    .map(([prefix, pieces]) => prefix + pieces.join(''));

/** Legal characters that a careless URL would misread (dots, `&`, non-ASCII letters and marks): all accepted. */
const edgeCases: Record<string, string[]> = {
  'github/post': ['octocat:...', 'octocat:.git', 'octocat:a..b', 'octocat:-._'],
  'facebook/account': ['a...b', 'nasa.gov'],
  'linkedin/organization': ['johnson-&-johnson', 'booking.com', 'a&b'],
  // Internationalized hosts go upstream as punycode (docs/api.md#federated-identifiers).
  'mastodon/account': [
    'Gargron@Mastodon.Social',
    'anna@bücher.example.de',
    'ivan@пример.рф',
    'a.b-c_d@xn--bcher-kva.de',
    'x@ＭＡＳＴＯＤＯＮ.social',
  ],
  'mastodon/post': ['Gargron@Mastodon.Social:1', 'anna@bücher.de:01FBVD42CQ3ZEEVMW180SBX03B'],
  'lemmy/community': ['Technology@Lemmy.World', 'tech@bücher.de'],
  'lemmy/post': ['Lemmy.World:1', 'bücher.de:42'],
  'tiktok/account': ['.._', '._'],
  'youtube/account': [
    '...',
    '@...',
    '@\u0130stanbul',
    '\u00e9\u0301\u0301',
    '\u0663\u0663\u0663',
    '@\u{1d7f7}\u{1d7f7}\u{1d7f7}',
    'caf\u00e9-.',
  ],
};

t.test('identifiers - every accepted identifier reaches its platform encoded, in its one place of the URL', async (t) => {
  const { upstream, lookup, token } = await setUp(t);
  const options = { seed: 5, numRuns: 40 };
  const distinct = (rule: Rule, identifiers: string[]) =>
    [...new Set(identifiers)].filter((identifier) => !conventional(rule, identifier)).map((identifier) => ({ rule, identifier }));
  const wellFormedLookups = rules.flatMap((rule) =>
    distinct(rule, [
      ...fc.sample(wellFormed(rule), options).filter((identifier) => identifierSyntax(rule.platform, rule.type)!.isValid(identifier)),
      ...(edgeCases[`${rule.platform}/${rule.type}`] ?? []),
    ]),
  );
  const mixedLookups = rules.flatMap((rule) => distinct(rule, fc.sample(mixed(rule), options)));

  t.same(
    await lookUpAll(lookup, wellFormedLookups, acceptedWith),
    [],
    `all ${wellFormedLookups.length} well-formed identifiers are accepted`,
  );
  const mixedAccepted = mixedLookups.filter(isValid);
  const mixedRefused = mixedLookups.filter((lookup) => !isValid(lookup));
  t.same(
    await lookUpAll(lookup, mixedAccepted, acceptedWith),
    [],
    `${mixedAccepted.length} mixed identifiers with only legal characters are accepted`,
  );
  t.same(
    await lookUpAll(lookup, mixedRefused, refusedWith),
    [],
    `${mixedRefused.length} mixed identifiers are refused with their 422 messages`,
  );

  const expected = new Set(
    [...wellFormedLookups, ...mixedAccepted].flatMap(({ rule, identifier }) =>
      expectedParts(rule.platform, rule.type, rule.rule.normalize(identifier)),
    ),
  );
  const { unreadable, seen } = await upstreamParts(upstream, expected);
  t.same(unreadable, [], 'every upstream request has its platform shape, and no identifier added a path segment or parameter');
  t.same(sorted(seen), sorted(expected), 'the upstream saw exactly the accepted identifiers, each decoding to its normalized form');
  t.ok(upstream.headerLines.includes('authorization: Bearer emulator'), 'the upstream credential goes out (to x) as configured');
  t.same(
    upstream.headerLines.filter((line) => line.includes(token.slice('dp_'.length))),
    [],
    "but the caller's token is never passed on",
  );
});
