// Crash safety (docs/guarantees.md#crash-safety): the server is killed with SIGKILL at random moments, under search
// load or while starting, and restarted on the same data directory, round after round.
// CRASH_ROUNDS sets the number of rounds (5 by default, docs/testing.md#time-limits; npm run
// test:crash-long runs 200), CRASH_SEED
// replays a run: each round's kill moment and each worker's requests follow from the seed
// (how many requests get answered before the kill depends on timing, the checks do not).
import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createAccount, issueToken } from '../../src/access/provisioning.js';
import { limits } from '../../src/config.js';
import { AccountStore } from '../../src/store/accountStore.js';
import { UsageStore } from '../../src/seams/quotaLedger/usageStore.js';
import { cliInProcess } from '../helpers/cli.js';
import { searchPath, tempDataDir } from '../helpers/service.js';
import { inspectStore, readAuthBaseline, withDatabases } from './integrity.js';
import { roundSeed, searchLoad, seededRandom, type Client, type SettledResources, type Tally } from './load.js';
import { spawnServer } from './serverProcess.js';

const rounds = Number(process.env.CRASH_ROUNDS ?? 5);
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 32));
const workers = 12;
const tinyQuota = 150;

/**
 * Two tokens sharing one account's pool, a revoked token, a small quota. Provisioned with the
 * code the CLI runs (src/access/provisioning.ts): a CLI process per token would cost seconds.
 */
async function provision(data: string): Promise<Client[]> {
  return withDatabases(data, async (dbs) => {
    const accounts = new AccountStore(dbs);
    const now = Date.now();
    const unlimited = { limit: 1_000_000, windowMs: 60_000 };
    await createAccount(accounts, 'alpha', { plan: 'paid', rate: unlimited }, now);
    await createAccount(accounts, 'beta', { plan: 'paid', rate: unlimited }, now);
    await createAccount(accounts, 'tiny', { quota: tinyQuota, rate: unlimited }, now);
    const client = async (account: string, revoked: boolean): Promise<Client> => {
      const token = await issueToken(accounts, account, now);
      if (revoked) await accounts.revokeToken(token.id, new Date(now).toISOString());
      return { account, secret: token.secret, revoked, limited: account === 'tiny' };
    };
    return [
      await client('alpha', false),
      await client('alpha', false),
      await client('beta', false),
      await client('beta', true),
      await client('tiny', false),
    ];
  });
}

t.test('crash - kill -9 under load keeps accounts, tokens, usage and snapshots whole', async (t) => {
  const replay = `seed ${seed}; replay with CRASH_SEED=${seed} CRASH_ROUNDS=${rounds}`;
  t.comment(replay);
  const data = tempDataDir(t);
  const clients = await provision(data);
  const baseline = await withDatabases(data, readAuthBaseline);
  const tallies = new Map<string, Tally>(['alpha', 'beta', 'tiny'].map((name) => [name, { sent: 0, counted: 0, refused: 0, leeway: 0 }]));
  const settled: SettledResources = new Map();
  const answers = new Map<number, number>();
  /** Per account, the most its stored usage ran ahead of the requests that could be counted. */
  const largestExcess = new Map<string, number>();
  const started = Date.now();

  for (let round = 0; round < rounds; round += 1) {
    const random = seededRandom(roundSeed(seed, round));
    // Mostly under load; sometimes while it opens the store and starts the emulator, and always
    // in the second round, so that a short default run covers both moments.
    const during = round === 1 || random() < 0.15 ? 'start-up' : 'load';
    // A kill at a random moment is the point (replayed from the seed): these sleeps choose it, nothing waits on them.
    const delayMs = Math.floor(random() * (during === 'start-up' ? 1_200 : 600));
    // Two edge threads answer searches beside the resource thread (docs/guarantees.md#threads).
    const server = spawnServer(t, ['--data', data, '--upstream', 'emulator', '--threads', '2']);
    const problems: string[] = [];
    if (during === 'start-up') {
      await sleep(delayMs);
      await server.kill();
    } else {
      // Every restart after a crash must open the data and listen again.
      const url = await server.listening;
      let stop!: () => void;
      const load = searchLoad({ url, clients, workers, seed, round, tallies, settled, stop: new Promise((resolve) => (stop = resolve)) });
      await sleep(delayMs);
      await server.kill();
      for (const tally of tallies.values()) tally.leeway += limits.quotaReservation.maxBlock;
      stop();
      const report = await load;
      problems.push(...report.problems);
      for (const [status, count] of report.statuses) answers.set(status, (answers.get(status) ?? 0) + count);
    }
    const store = await withDatabases(data, (dbs) => inspectStore(dbs, baseline, tallies, settled));
    problems.push(...store.problems);
    for (const [account, tally] of tallies) {
      const excess = (store.usage.get(account) ?? 0) - (tally.sent - tally.refused);
      if (excess > (largestExcess.get(account) ?? 0)) largestExcess.set(account, excess);
    }
    // The quota holds across crashes: a restart reads the durable count back (quotaMeter.ts).
    if ((store.usage.get('tiny') ?? 0) > tinyQuota) problems.push(`tiny: usage ${store.usage.get('tiny')} over its quota of ${tinyQuota}`);
    const moment = during === 'start-up' ? `${delayMs} ms after spawn` : `${delayMs} ms into the load`;
    t.same(problems, [], `round ${round}: killed ${moment}, restarted, data whole (seed ${seed})`);
    if (problems.length > 0) break;
  }

  t.comment(`${rounds} rounds in ${Date.now() - started} ms; answers ${JSON.stringify(Object.fromEntries(answers))}`);
  t.comment(`tallies ${JSON.stringify(Object.fromEntries(tallies))}`);
  t.comment(`usage beyond the requests sent, at most: ${JSON.stringify(Object.fromEntries(largestExcess))}`);

  // After the last crash: the operator's view agrees with the store, and each token still
  // gets the answer its account is due.
  const store = await withDatabases(data, (dbs) => inspectStore(dbs, baseline, tallies, settled));
  t.comment(`resources ${JSON.stringify(Object.fromEntries(store.statuses))}; usage ${JSON.stringify(Object.fromEntries(store.usage))}`);
  for (const account of tallies.keys()) {
    const shown = JSON.parse((await cliInProcess(['accounts', 'show', account, '--data', data])).stdout);
    // Less the units in hand the killed server last recorded (docs/operations.md#usage-shown).
    const stored = await withDatabases(data, (dbs) => new UsageStore(dbs).counted(account, shown.usage.month));
    t.equal(shown.usage.used, stored, `${account}: accounts show reports the stored usage, less the units in hand recorded`);
  }
  const server = spawnServer(t, ['--data', data, '--upstream', 'emulator', '--threads', '2']);
  const url = await server.listening;
  const tinyExhausted = (store.usage.get('tiny') ?? 0) >= tinyQuota;
  for (const client of clients) {
    const response = await fetch(url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'crashpool0' }] }),
    });
    await response.arrayBuffer();
    const expected = client.revoked ? 401 : client.limited && tinyExhausted ? 403 : 200;
    t.equal(
      response.status,
      expected,
      `${client.account}${client.revoked ? ' (revoked)' : ''} answered ${expected} after ${rounds} crashes`,
    );
  }
  await server.kill();
});
