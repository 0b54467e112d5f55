// The references a syntax remembers (src/api/schema.ts) are the ones a fresh check would make:
// asked twice, or after the memory started over, a valid identifier gets the same key and
// answer opening, and an invalid one none (docs/api.md#a-5, docs/api.md#a-10).
import fc from 'fast-check';
import t from 'tap';
import { identifierSyntax } from '../../src/api/schema.js';
import { resourceKey, type PlatformCode, type ResourceType } from '../../src/model.js';
import { identifierRules } from '../../src/platforms/registry.js';

/** Characters most platforms' identifiers are made of, so that many generated ones are valid. */
const identifierCharacters = [...'abcXYZ019-_.:@'];

/** The reference as built without memory: key and answer opening, or undefined when invalid. */
const fresh = (platform: PlatformCode, type: ResourceType, identifier: string) => {
  const syntax = identifierSyntax(platform, type)!;
  if (!syntax.isValid(identifier)) return undefined;
  return {
    key: resourceKey({ platform, type, identifier: syntax.rule.normalize(identifier) }),
    head: `{"platform":"${platform}","type":"${type}","identifier":${JSON.stringify(identifier)}`,
  };
};

const made = (platform: PlatformCode, type: ResourceType, identifier: string) => {
  const resource = identifierSyntax(platform, type)!.requested(identifier);
  return resource && { key: resource.key, head: resource.head };
};

t.test(
  'identifier keys - remembered or not, a reference is keyed and rendered as a fresh one, and an invalid identifier makes none',
  (t) => {
    for (const { platform, type } of identifierRules) {
      fc.assert(
        fc.property(
          fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: fc.constantFrom(...identifierCharacters), maxLength: 40 })),
          (identifier) => {
            const expected = JSON.stringify(fresh(platform, type, identifier));
            return (
              JSON.stringify(made(platform, type, identifier)) === expected && JSON.stringify(made(platform, type, identifier)) === expected
            );
          },
        ),
        { numRuns: 300 },
      );
    }
    t.same(made('github', 'account', 'Bench-0'), {
      key: 'github/account/bench-0',
      head: '{"platform":"github","type":"account","identifier":"Bench-0"',
    });
    t.equal(made('github', 'account', 'bench-0')?.key, 'github/account/bench-0');
    t.equal(made('github', 'account', 'https://github.com/bench-0'), undefined);
    t.end();
  },
);

t.test('identifier keys - past 20,000 identifiers the memory starts over and references stay right', (t) => {
  const syntax = identifierSyntax('github', 'account')!;
  for (let index = 0; index < 45_000; index++) {
    if (syntax.requested(`User-${index}`)?.key !== `github/account/user-${index}`) t.fail(`wrong key for User-${index}`);
  }
  t.equal(syntax.requested('User-0')?.key, 'github/account/user-0');
  t.equal(syntax.requested('User-44999')?.head, '{"platform":"github","type":"account","identifier":"User-44999"');
  t.end();
});
