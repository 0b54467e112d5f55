// Search load for crash rounds: keep-alive workers that send a seeded mix of valid (200) and
// invalid (422) bodies until the server dies under them, and tally what each account sent
// and what it was answered.
import { Pool } from 'undici';
import type { SearchBody } from '../helpers/searchBody.js';
import { searchPath } from '../helpers/service.js';

/** mulberry32: a small seeded PRNG, so a failing round is replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A seed of its own for each round, so a round can be replayed without the ones before it. */
export const roundSeed = (seed: number, round: number) => (seed ^ Math.imul(round + 1, 0x9e3779b1)) >>> 0;

export interface Client {
  account: string;
  secret: string;
  revoked: boolean;
  /** The account has a small monthly quota: 403 is a correct answer. */
  limited: boolean;
}

/** Per account, over every round so far. */
export interface Tally {
  /** Requests sent with a valid token of the account: each may have been counted. */
  sent: number;
  /** 200 and 422 answers: each was counted before it was written (no free requests). */
  counted: number;
  /** 403 answers: refused before counting. */
  refused: number;
  /**
   * Quota units the account may hold reserved and unspent when its server is killed: one
   * block (limits.quotaReservation.maxBlock) per server killed after it admitted requests.
   */
  leeway: number;
}

export interface LoadReport {
  /** Unexpected answers, as messages; a correct server gives none. */
  problems: string[];
  /** Status code -> answers this round. */
  statuses: Map<number, number>;
}

/**
 * Resources known to be settled (not pending) from an answer, with the newest `collected_at`
 * seen for their datapoints (null for not_found and unavailable). Keys are `platform/type/id`:
 * every identifier sent is already in normalized (lower-case) form.
 */
export type SettledResources = Map<string, string | null>;

const pool = [
  ...Array.from({ length: 24 }, (_, index) => ({ platform: 'github', type: 'account', identifier: `crashpool${index}` })),
  ...Array.from({ length: 6 }, (_, index) => ({ platform: 'github', type: 'post', identifier: `crashpool${index}:repo${index}` })),
  ...Array.from({ length: 4 }, (_, index) => ({ platform: 'github', type: 'account', identifier: `missing${index}` })),
  // A platform of its own for failures, so that its circuit breaker never trips the others.
  ...Array.from({ length: 2 }, (_, index) => ({ platform: 'tiktok', type: 'account', identifier: `flaky${index}` })),
];

const invalidBodies = [
  JSON.stringify({ resources: [] }),
  JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'https://github.com/octocat' }] }),
  JSON.stringify({ resources: [{ platform: 'facebook', type: 'post', identifier: 'page' }] }),
  '{"resources": [',
];

function searchBody(random: () => number, fresh: () => string): string {
  const roll = random();
  if (roll < 0.2) return invalidBodies[Math.floor(random() * invalidBodies.length)]!;
  const resources = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pool[Math.floor(random() * pool.length)]!);
  // Some resources new to the service, so collection writes snapshots during the load.
  if (roll < 0.45) resources.push({ platform: 'github', type: 'account', identifier: fresh() });
  return JSON.stringify({ resources });
}

function recordSettled(body: string, settled: SettledResources): void {
  for (const entry of (JSON.parse(body) as SearchBody).data) {
    if (entry.status === 'pending') continue;
    const key = `${entry.platform}/${entry.type}/${entry.identifier}`;
    const collectedAt = entry.metrics ? (Object.values(entry.metrics)[0]?.collected_at ?? null) : null;
    const known = settled.get(key);
    if (known === undefined || (collectedAt !== null && (known === null || collectedAt > known))) settled.set(key, collectedAt);
  }
}

/**
 * Runs `workers` keep-alive clients against `url` until `stop` resolves or the server is
 * gone; every request is tallied as sent before it leaves, and by its answer if one comes.
 */
export async function searchLoad(options: {
  url: string;
  clients: Client[];
  workers: number;
  seed: number;
  round: number;
  tallies: Map<string, Tally>;
  settled: SettledResources;
  stop: Promise<void>;
}): Promise<LoadReport> {
  const { clients, tallies, settled } = options;
  const connections = new Pool(options.url, { connections: options.workers, pipelining: 1 });
  const report: LoadReport = { problems: [], statuses: new Map() };
  let stopped = false;
  void options.stop.then(() => (stopped = true));

  const worker = async (index: number) => {
    const random = seededRandom(roundSeed(options.seed, options.round) + index);
    let freshCount = 0;
    const fresh = () => `new-r${options.round}-w${index}-${freshCount++}`;
    while (!stopped) {
      const client = clients[Math.floor(random() * clients.length)]!;
      const body = searchBody(random, fresh);
      const tally = tallies.get(client.account)!;
      if (!client.revoked) tally.sent += 1;
      let status: number;
      let text: string;
      try {
        const response = await connections.request({
          path: searchPath,
          method: 'POST',
          headers: { authorization: `Bearer ${client.secret}`, 'content-type': 'application/json' },
          body,
        });
        status = response.statusCode;
        text = await response.body.text();
      } catch {
        return; // the server died under this request: it was sent, never answered
      }
      report.statuses.set(status, (report.statuses.get(status) ?? 0) + 1);
      const expected = client.revoked ? [401] : client.limited ? [200, 403, 422] : [200, 422];
      if (!expected.includes(status)) {
        report.problems.push(`${client.account}${client.revoked ? ' (revoked token)' : ''}: ${status} ${text}`);
        continue;
      }
      if (status === 200 || status === 422) tally.counted += 1;
      if (status === 403) tally.refused += 1;
      if (status === 200) recordSettled(text, settled);
    }
  };

  try {
    await Promise.all(Array.from({ length: options.workers }, (_, index) => worker(index)));
  } finally {
    await connections.destroy();
  }
  return report;
}
