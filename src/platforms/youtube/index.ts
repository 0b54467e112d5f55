import type { PlatformDefinition } from '../types.js';
import { createYoutubeCollector } from './collector.js';
import { youtubeChannel, youtubeVideo } from './identifiers.js';

export const youtube: PlatformDefinition<'youtube'> = {
  code: 'youtube',
  // Video ids first: the emulator's fault switch names no type and normalizes with the first
  // rule that matches, and an 11-character video id also reads as a bare handle.
  identifiers: { post: youtubeVideo, account: youtubeChannel },
  realBaseUrl: 'https://www.googleapis.com/youtube/v3',
  // The Data API answers nothing without an API key of a Google Cloud project.
  requiredCredentials: ['YOUTUBE_API_KEY'],
  optionalCredentials: [],
  // The default quota is 10,000 units a day (about 6.9 a minute) and every list call costs 1
  // unit; a collection is one call per kind of id plus one per handle, so 4 a minute keeps
  // a typical day near 6,000-8,000 units.
  budget: { concurrency: 2, perMinute: 4 },
  createCollector: createYoutubeCollector,
};
