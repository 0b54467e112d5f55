// The keys a syntax remembers (src/api/schema.ts) are the keys a fresh check would build: asked
// twice, or after the memory started over, a valid identifier gets the same key and an invalid
// one none (docs/api.md#a-5).
import fc from 'fast-check';
import t from 'tap';
import { identifierSyntax } from '../../src/api/schema.js';
import { resourceKey } from '../../src/model.js';
import { identifierRules } from '../../src/platforms/registry.js';

/** Characters most platforms' identifiers are made of, so that many generated ones are valid. */
const identifierCharacters = [...'abcXYZ019-_.:@'];

const freshKey = (platform: string, type: string, identifier: string) => {
  const syntax = identifierSyntax(platform, type)!;
  if (!syntax.isValid(identifier)) return undefined;
  return resourceKey({ platform, type, identifier: syntax.rule.normalize(identifier) } as Parameters<typeof resourceKey>[0]);
};

t.test('identifier keys - remembered or not, a key is the normalized reference, and an invalid identifier has none', (t) => {
  for (const { platform, type } of identifierRules) {
    const syntax = identifierSyntax(platform, type)!;
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: fc.constantFrom(...identifierCharacters), maxLength: 40 })),
        (identifier) => {
          const expected = freshKey(platform, type, identifier);
          return syntax.keyOf(identifier) === expected && syntax.keyOf(identifier) === expected;
        },
      ),
      { numRuns: 300 },
    );
  }
  t.equal(identifierSyntax('github', 'account')!.keyOf('Bench-0'), 'github/account/bench-0');
  t.equal(identifierSyntax('github', 'account')!.keyOf('bench-0'), 'github/account/bench-0');
  t.equal(identifierSyntax('github', 'account')!.keyOf('https://github.com/bench-0'), undefined);
  t.end();
});

t.test('identifier keys - past 20,000 identifiers the memory starts over and keys stay right', (t) => {
  const syntax = identifierSyntax('github', 'account')!;
  for (let index = 0; index < 45_000; index++) {
    if (syntax.keyOf(`User-${index}`) !== `github/account/user-${index}`) t.fail(`wrong key for User-${index}`);
  }
  t.equal(syntax.keyOf('User-0'), 'github/account/user-0');
  t.equal(syntax.keyOf('User-44999'), 'github/account/user-44999');
  t.end();
});
