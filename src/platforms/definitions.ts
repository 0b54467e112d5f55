// The one list of platforms: one line per platform folder. Everything that enumerates
// platforms (the platform codes, the API's schema, the emulator, the tests) derives from it.
// docs/adding-a-platform.md
export { bluesky } from './bluesky/index.js';
export { facebook } from './facebook/index.js';
export { github } from './github/index.js';
export { instagram } from './instagram/index.js';
export { linkedin } from './linkedin/index.js';
export { threads } from './threads/index.js';
export { tiktok } from './tiktok/index.js';
export { x } from './x/index.js';
export { youtube } from './youtube/index.js';
