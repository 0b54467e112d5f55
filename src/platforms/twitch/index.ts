import type { PlatformDefinition } from '../types.js';
import { createTwitchCollector } from './collector.js';
import { twitchChannel, twitchVideo } from './identifiers.js';

export const twitch: PlatformDefinition<'twitch'> = {
  code: 'twitch',
  // docs/api.md#a-3: a channel is an account, a video (VOD, highlight, upload) a post.
  identifiers: { account: twitchChannel, post: twitchVideo },
  realBaseUrl: 'https://api.twitch.tv',
  // App access tokens come from the identity host.
  realOrigins: { id: 'https://id.twitch.tv' },
  requiredCredentials: ['TWITCH_CLIENT_ID', 'TWITCH_CLIENT_SECRET'],
  optionalCredentials: [],
  // Helix gives an app token 800 points a minute, one point a call; a collection is two calls
  // (the channel's id, then its followers or the video), so 300 a minute stay at 600 points.
  budget: { concurrency: 4, perMinute: 300 },
  createCollector: createTwitchCollector,
};
