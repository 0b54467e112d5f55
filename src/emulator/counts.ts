// Deterministic counts for the emulator: derived from a hash of (platform, type, normalized
// identifier) and drifting slowly upwards with time, the same in every process.
import { createHash } from 'node:crypto';
import type { EmulatedCounts } from '../platforms/emulatorContract.js';

const driftEpoch = Date.UTC(2026, 0, 1);
const hourMs = 3_600_000;

export function emulatedCounts(platform: string, type: string, normalized: string, now: number): EmulatedCounts {
  const digest = createHash('sha256').update(`${platform}/${type}/${normalized}`).digest();
  // Eight independent fractions in [0, 1) from the digest (and a ninth mixed from two of them).
  const u = (i: number) => digest.readUInt32BE(i * 4) / 2 ** 32;
  const hours = Math.max(0, Math.floor((now - driftEpoch) / hourMs));
  // Spread sizes over five orders of magnitude, as real audiences are.
  const magnitude = (fraction: number, max: number) => Math.floor(10 ** (1 + fraction * max));
  const drifting = (base: number, fraction: number) => base + Math.floor(hours * fraction * 2);
  return {
    followers: drifting(magnitude(u(0), 5.5), u(1)),
    following: magnitude(u(2), 3),
    posts: drifting(magnitude(u(3), 3.5), u(4) / 10),
    views: drifting(magnitude(u(5), 6), u(1) * 5),
    likes: drifting(magnitude(u(6), 4.5), u(4)),
    reposts: magnitude(u(7), 3.5),
    replies: drifting(magnitude((u(2) + u(7)) % 1, 3.5), u(4) / 2),
    verified: u(0) > 0.8,
  };
}
