// Every platform the service collects from (docs/api.md#a-2: each with a real collector), from
// the one list in definitions.ts. A definition filed under another name than its code does
// not compile.
import type { PlatformCode } from '../model.js';
import * as definitions from './definitions.js';
import type { PlatformDefinition } from './types.js';

const byCode: { readonly [Code in PlatformCode]: PlatformDefinition<Code> } = definitions;

export const platforms: ReadonlyMap<PlatformCode, PlatformDefinition> = new Map(
  Object.values(byCode).map((platform: PlatformDefinition) => [platform.code, platform]),
);

/** The platform codes, in the order of definitions.ts. */
export const platformCodes: readonly PlatformCode[] = [...platforms.keys()];
