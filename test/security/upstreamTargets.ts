// What each platform's upstream requests may look like, read back into the identifiers they
// carry: each platform states its shape in its folder (`src/platforms/<code>/upstreamShape.ts`),
// found here by code, so a new platform brings its own. A target that fits none of its
// platform's shapes, or carries an unexpected query parameter, is an identifier that escaped
// its place in the URL.
import type { PlatformCode, ResourceType } from '../../src/model.js';
import { platformCodes, platforms } from '../../src/platforms/registry.js';
import type { Part, UpstreamShape } from '../../src/platforms/upstreamShape.js';

export type { Part } from '../../src/platforms/upstreamShape.js';

const isShapeModule = (module: unknown): module is { upstreamShape: UpstreamShape } =>
  typeof module === 'object' && module !== null && 'upstreamShape' in module;

const shapes = new Map<PlatformCode, UpstreamShape>();
for (const code of platformCodes) {
  const module: unknown = await import(`../../src/platforms/${code}/upstreamShape.js`);
  if (!isShapeModule(module)) throw new Error(`platform ${code} has no upstreamShape.ts exporting 'upstreamShape'`);
  shapes.set(code, module.upstreamShape);
}

const codes: ReadonlySet<string> = new Set(platformCodes);
const isPlatformCode = (code: string): code is PlatformCode => codes.has(code);

/**
 * The identifier parts a recorded request target (`/<platform>/...`, still encoded) carries,
 * or undefined when the target is outside every shape of its platform.
 */
export function readTarget(target: string): { platform: PlatformCode; parts: Part[] } | undefined {
  const url = new URL(target, 'http://upstream.invalid');
  // The target as sent must be the target as parsed: no dot segments, no fragment, nothing rewritten.
  if (url.pathname + url.search !== target) return undefined;
  const platform = /^\/([a-z]+)\//.exec(url.pathname)?.[1];
  if (platform === undefined || !isPlatformCode(platform) || !platforms.has(platform)) return undefined;
  const parts = shapes.get(platform)!.read(url.pathname.slice(platform.length + 1), url.searchParams);
  return parts ? { platform, parts } : undefined;
}

/** The parts a valid identifier must turn into upstream, from its normalized form. */
export function expectedParts(platform: PlatformCode, type: ResourceType, normalized: string): Part[] {
  return shapes.get(platform)!.expected(type, normalized);
}
