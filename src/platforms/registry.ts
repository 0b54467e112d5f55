// Every platform the service collects from (decisions 3: each with a real collector).
import type { PlatformCode } from '../model.js';
import type { PlatformDefinition } from './types.js';
import { github } from './github/index.js';
import { facebook } from './facebook/index.js';
import { instagram } from './instagram/index.js';
import { threads } from './threads/index.js';
import { tiktok } from './tiktok/index.js';
import { linkedin } from './linkedin/index.js';
import { bluesky } from './bluesky/index.js';
import { youtube } from './youtube/index.js';
import { x } from './x/index.js';

export const platforms: ReadonlyMap<PlatformCode, PlatformDefinition> = new Map(
  [github, facebook, instagram, threads, tiktok, linkedin, bluesky, youtube, x].map((platform) => [platform.code, platform]),
);
