// The request bodies of the scenarios: github accounts, the platform every build carries.
import { benchIdentifier } from './seed.js';

export const searchPath = '/api/v1/resources/search';

const reference = (identifier: string) => ({ platform: 'github', type: 'account', identifier });

export const searchBody = (identifiers: readonly string[]) => JSON.stringify({ resources: identifiers.map(reference) });

/** Ten seeded resources, the first `offset`-th ten. */
export const tenSeeded = (offset = 0) => Array.from({ length: 10 }, (_, index) => benchIdentifier(offset * 10 + index));

/** One seeded resource per body, rotating over the first `count`. */
export const oneSeededBodies = (count: number) => Array.from({ length: count }, (_, index) => searchBody([benchIdentifier(index)]));

/** A template of nine seeded resources and one new to the service (`%ID%` is made unique by wrk). */
export const withOneNewTemplate = () => searchBody([...tenSeeded().slice(0, 9), 'new-%ID%']);

/** A template of ten resources drawn at random (`%RAND%`) from the seeded set. */
export const tenRandomTemplate = () => searchBody(Array.from({ length: 10 }, () => 'bench-%RAND%'));

/** An identifier that is a URL: 422 under docs/api.md#a-5. */
export const invalidBody = () => searchBody(['https://github.com/bench-0']);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
