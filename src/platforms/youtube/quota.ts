// The YouTube Data API's daily quota resets at midnight Pacific Time
// (https://developers.google.com/youtube/v3/getting-started#quota).
const pacific = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});
const dayMs = 86_400_000;

/** How far Pacific wall-clock time is ahead of UTC at `at` (negative: -7 or -8 hours). */
function pacificOffsetMs(at: number): number {
  const part = (type: string) => Number(pacific.formatToParts(at).find((p) => p.type === type)!.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The first Pacific midnight after `now`, in epoch milliseconds. */
export function nextPacificMidnight(now: number): number {
  const midnightWall = (Math.floor((now + pacificOffsetMs(now)) / dayMs) + 1) * dayMs;
  // The offset at midnight can differ from now's across a DST change; midnight is never inside one.
  const guess = midnightWall - pacificOffsetMs(now);
  return midnightWall - pacificOffsetMs(guess);
}
