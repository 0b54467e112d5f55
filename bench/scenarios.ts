// What each scenario sends and what it must be answered, over the seeded github accounts.
import { everyEntry } from './preflight.js';
import type { Profile } from './report.js';
import {
  bearer,
  invalidBody,
  oneSeededBodies,
  searchBody,
  searchPath,
  tenRandomTemplate,
  tenSeeded,
  withOneNewTemplate,
} from './requests.js';
import type { LoadShape } from './wrk.js';

export interface ScenarioShape {
  name: string;
  what: string;
  profile: Profile;
  shape: LoadShape;
  expectStatus: number;
  check?: (body: string) => string | undefined;
}

export const warmTen = (token: string): ScenarioShape => ({
  name: 'search-10-warm',
  what: '10 available resources per request: auth, quota, rate limit, validation, 10 views',
  profile: 'search10',
  shape: { path: searchPath, headers: bearer(token), bodies: [searchBody(tenSeeded())] },
  expectStatus: 200,
  check: everyEntry('available'),
});

export const serviceScenarios = (token: string): ScenarioShape[] => [
  warmTen(token),
  {
    name: 'search-1-warm',
    what: '1 available resource per request, rotating over 100',
    profile: 'search1',
    shape: { path: searchPath, headers: bearer(token), bodies: oneSeededBodies(100) },
    expectStatus: 200,
    check: everyEntry('available'),
  },
  {
    name: 'search-10-new-mix',
    what: 'as search-10-warm, but every 10th request carries a resource new to the service (pending, collected from the in-process emulator)',
    profile: 'search10',
    shape: {
      path: searchPath,
      headers: bearer(token),
      bodies: [searchBody(tenSeeded())],
      generated: { every: 10, template: withOneNewTemplate() },
    },
    expectStatus: 200,
  },
  {
    name: 'invalid-422',
    what: '1 resource whose identifier is a URL: counted, then refused with 422',
    profile: 'search1',
    shape: { path: searchPath, headers: bearer(token), bodies: [invalidBody()] },
    expectStatus: 422,
  },
  {
    name: 'unauthorized-401',
    what: '1 resource with an unknown bearer token: 401 before the body is read',
    profile: 'search1',
    shape: { path: searchPath, headers: bearer('dp_unknownTokenOfTheBenchmark000000000000'), bodies: oneSeededBodies(1) },
    expectStatus: 401,
  },
];

/** Ten resources drawn at random from `count` seeded ones, a concrete body for the preflight. */
export const coldTen = (token: string, count: number): ScenarioShape => {
  const template = tenRandomTemplate();
  const concrete = template.replace(/%RAND%/g, () => String(Math.floor(Math.random() * count)));
  return {
    name: 'search-10-cold-1M',
    what: `10 resources drawn at random from ${count} tracked in LMDB, on a server just started (no view in memory)`,
    profile: 'search10',
    shape: { path: searchPath, headers: bearer(token), bodies: [concrete], generated: { every: 1, template, randomBelow: count } },
    expectStatus: 200,
    check: everyEntry('available'),
  };
};
