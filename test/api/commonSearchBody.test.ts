// The reader of common search bodies (src/api/commonSearchBody.ts) accepts only what JSON.parse
// reads to the same fields, and a search validated through it is the one the full validation
// makes (docs/api.md#errors: the 422s stay the full validation's own).
import fc from 'fast-check';
import t from 'tap';
import { commonSearchFields } from '../../src/api/commonSearchBody.js';
import { validateSearch, validateSearchText } from '../../src/api/validation.js';

/** The fields JSON.parse finds in a body of the common shape, flattened; undefined for any other body. */
function parsedFields(text: string): string[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { resources, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !Array.isArray(resources) || resources.length < 1 || resources.length > 10) return undefined;
  const fields: string[] = [];
  for (const reference of resources as unknown[]) {
    if (typeof reference !== 'object' || reference === null || Array.isArray(reference)) return undefined;
    const record = reference as Record<string, unknown>;
    if (Object.keys(record).sort().join() !== 'identifier,platform,type') return undefined;
    const values = [record.platform, record.type, record.identifier];
    if (!values.every((value) => typeof value === 'string' && value !== '')) return undefined;
    fields.push(...(values as string[]));
  }
  return fields;
}

const space = fc.constantFrom('', '', ' ', '\n  ', '\t', '\r\n');
const content = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom('github', 'account', 'x', 'Bench-1', 'Bench-2', 'é-ü') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a"b', 'a\\"b', 'A\\u0041', 'tab\there', 'bell\u0007') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const value = fc.oneof(
  { weight: 40, arbitrary: content.map((text) => `"${text}"`) },
  { weight: 1, arbitrary: fc.constantFrom('1', 'null', 'true', '[]', '{}', '"unterminated') },
);
const name = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom('platform', 'type', 'identifier') },
  { weight: 1, arbitrary: fc.constantFrom('extra', 'Platform', 'identifier ', 'type\\u0000') },
);
const member = fc.tuple(space, name, space, space, value).map(([a, key, b, c, text]) => `${a}"${key}"${b}:${c}${text}`);
/** Mostly the three members once each in their order; sometimes in another, or more, fewer or repeated. */
const reference = fc
  .oneof(
    { weight: 40, arbitrary: fc.constant(['platform', 'type', 'identifier']) },
    { weight: 5, arbitrary: fc.shuffledSubarray(['platform', 'type', 'identifier'], { minLength: 3, maxLength: 3 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom('platform', 'type', 'identifier', 'extra'), { maxLength: 5 }) },
  )
  .chain((names) =>
    fc
      .tuple(
        ...names.map((key) => fc.tuple(space, value, space).map(([a, text, b]) => `${a}"${key}"${b}:${a}${text}`)),
        member,
        fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
      )
      .map((parts) => {
        const extra = parts.pop() as boolean;
        const other = parts.pop() as string;
        return `{${[...(parts as string[]), ...(extra ? [other] : [])].join(',')}}`;
      }),
  );
/** 1-4 references, or now and then 11 (one too many). */
const someReferences = fc.oneof(
  { weight: 20, arbitrary: fc.array(fc.tuple(space, reference, space), { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.tuple(space, reference, space), { minLength: 11, maxLength: 11 }) },
);
const body = fc
  .tuple(
    space,
    someReferences,
    space,
    fc.oneof({ weight: 20, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(',"x":1', ' x', '}', ']') }),
  )
  .map(
    ([a, references, b, tail]) =>
      `${a}{${b}"resources"${a}:${b}[${references.map(([c, text, d]) => `${c}${text}${d}`).join(',')}]${tail.startsWith(',') ? tail : ''}}${tail.startsWith(',') ? '' : tail}${b}`,
  );

t.test('common search bodies - read only when JSON.parse reads the same fields, and then validated alike', (t) => {
  let read = 0;
  fc.assert(
    fc.property(body, (text) => {
      const fields = commonSearchFields(text);
      if (fields === undefined) return true;
      read++;
      t.same([...fields], parsedFields(text), text);
      t.same(validateSearchText(text), validateSearch(JSON.parse(text)), text);
      return true;
    }),
    { numRuns: 3_000 },
  );
  t.ok(read > 1_000, `a good share of the generated bodies were read (${read})`);
  t.end();
});

t.test(
  'common search bodies - compact and pretty-printed bodies are read; other orders, escapes and members are left to JSON.parse',
  (t) => {
    const references = [
      { platform: 'github', type: 'account', identifier: 'Bench-1' },
      { platform: 'github', type: 'account', identifier: 'bench-2' },
    ];
    const expected = ['github', 'account', 'Bench-1', 'github', 'account', 'bench-2'];
    t.same(commonSearchFields(JSON.stringify({ resources: references })), expected);
    t.same(commonSearchFields(JSON.stringify({ resources: references }, null, 2)), expected);
    const reordered = JSON.stringify({ resources: [{ identifier: 'bench-2', type: 'account', platform: 'github' }] });
    t.equal(commonSearchFields(reordered), undefined);
    t.same(validateSearchText(reordered), validateSearch(JSON.parse(reordered)));
    t.equal(commonSearchFields('{"resources":[{"platform":"github","type":"account","identifier":"a\\u0062"}]}'), undefined);
    t.equal(commonSearchFields(JSON.stringify({ resources: [{ ...references[0], extra: 1 }] })), undefined);
    t.equal(commonSearchFields(JSON.stringify({ resources: Array(11).fill(references[0]) })), undefined);
    t.same(commonSearchFields(JSON.stringify({ resources: Array(10).fill(references[0]) })), Array(10).fill(expected.slice(0, 3)).flat());
    t.equal(commonSearchFields(JSON.stringify({ resources: [] })), undefined);
    t.end();
  },
);
