// The one list of platforms: one line per platform folder. Everything that enumerates
// platforms (the API's schema, the emulator, the tests) derives from it and from the codes in
// src/model.ts. docs/adding-a-platform.md
import type { PlatformCode } from '../model.js';
import { bluesky } from './bluesky/index.js';
import { facebook } from './facebook/index.js';
import { github } from './github/index.js';
import { instagram } from './instagram/index.js';
import { lemmy } from './lemmy/index.js';
import { linkedin } from './linkedin/index.js';
import { mastodon } from './mastodon/index.js';
import { peertube } from './peertube/index.js';
import { reddit } from './reddit/index.js';
import { threads } from './threads/index.js';
import { tiktok } from './tiktok/index.js';
import { twitch } from './twitch/index.js';
import { x } from './x/index.js';
import { youtube } from './youtube/index.js';
import type { PlatformDefinition } from './types.js';

/** A platform missing from the model's codes, missing here, or filed under another code does not compile. */
export const platformDefinitions = {
  bluesky,
  facebook,
  github,
  instagram,
  lemmy,
  linkedin,
  mastodon,
  peertube,
  reddit,
  threads,
  tiktok,
  twitch,
  x,
  youtube,
} satisfies { readonly [Code in PlatformCode]: PlatformDefinition<Code> };
