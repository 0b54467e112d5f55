// The dashboard on two `datapoints serve --nats` nodes (docs/dashboard.md#in-a-cluster): an
// invite made with the CLI on the cluster is accepted on one node, its account signs in on the
// other, the session cookie works on both, signing out on one ends it on the other, and after
// searches on both the usage page of each, and `accounts show --nats`, show the requests the
// cluster counted (every node's units in hand taken away); a token made on one node's dashboard and an account made on its console are the cluster's; with
// NATS out of reach a page that writes answers 503, and works again once it is back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { monthOf } from '../../src/access/calendar.js';
import { closeNats, connectNats } from '../../src/cluster/natsConnection.js';
import { KvQuotaLedger } from '../../src/seams/quotaLedger/kvQuotaLedger.js';
import { dayOf } from '../../src/store/dailyUsage.js';
import { cliInProcess, startServer, type ServerProcess, lastLine } from '../helpers/cli.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { eventually } from '../helpers/eventually.js';
import { WebClient } from '../web/webClient.js';

/** Admitted and counted, answered 422 without any upstream work (docs/api.md#a-46). */
const countedBody = '{"resources":[]}';

async function search(node: ServerProcess, secret: string): Promise<number> {
  const response = await fetch(`${node.url}/api/v1/resources/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: countedBody,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The first value `probe` gives that `check` accepts, polling every 20 ms; fails after `ms`. */
const within = <T>(ms: number, probe: () => Promise<T>, check: (value: T) => boolean): Promise<T> =>
  eventually(probe, check, { timeoutMs: ms, intervalMs: 20, orFail: `not within ${ms} ms` });

const within1s = <T>(probe: () => Promise<T>, check: (value: T) => boolean) => within(1_000, probe, check);

/** The units the cluster's quota ledger granted `account` this month, spent or not. */
async function grantedThisMonth(natsUrl: string, account: string): Promise<number> {
  const connection = await connectNats({ servers: [natsUrl], name: 'test' });
  try {
    const ledger = await KvQuotaLedger.open(connection, { replicas: 1, requestTimeoutMs: 5_000 });
    return (await ledger.read(account, monthOf(Date.now()))).granted;
  } finally {
    await closeNats(connection);
  }
}

/** Today's requests and the month's, as the usage page shows them. */
async function usageOn(client: WebClient): Promise<{ today: number; month: number }> {
  const page = await client.get('/dashboard/usage');
  const today = new RegExp(`<tr><td>${dayOf(Date.now())}</td><td>(\\d+)</td></tr>`).exec(page.text)?.[1];
  const month = /<strong id="used">(\d+)<\/strong>/.exec(page.text)?.[1];
  return { today: Number(today ?? Number.NaN), month: Number(month ?? Number.NaN) };
}

t.test('the dashboard across two nodes', async (t) => {
  const nats = await startNatsServer(t);
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'datapoints-node-')));
  t.teardown(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const [a, b] = await Promise.all(
    dirs.map((dir, index) => startServer(t, ['--nats', nats.url, '--data', dir, '--upstream', 'emulator', '--threads', String(1 + index)])),
  );
  const onCluster = async (args: string[]) => {
    const result = await cliInProcess([...args, '--nats', nats.url]);
    t.equal(result.status, 0, result.stderr);
    return lastLine(result.stdout);
  };
  await onCluster(['accounts', 'create', 'acme', '--rate', '100000/1m']);
  const secret = await onCluster(['tokens', 'create', 'acme']);
  const nobody = await cliInProcess(['accounts', 'invite', 'nobody', '--nats', nats.url, '--url', b!.url]);
  t.not(nobody.status, 0, 'no invite for an account the cluster does not have');
  t.match(nobody.stderr, "no account named 'nobody'");
  const link = await onCluster(['accounts', 'invite', 'acme', '--url', b!.url]);
  t.match(link, `${b!.url}/dashboard/invite#`, 'the link names the node given');

  const onB = new WebClient(b!.url);
  const password = 'a long enough password';
  const set = await within1s(
    () => onB.submit('/dashboard/invite', '/dashboard/invite', { invite: link.split('#')[1]!, password, confirm: password }),
    (answer) => answer.status === 303,
  );
  t.equal(set.headers.get('location'), '/dashboard/signin?password=set', 'the invite made on the cluster is accepted on B');

  const onA = new WebClient(a!.url);
  const signedIn = await within1s(
    () => onA.submit('/dashboard/signin', '/dashboard/signin', { name: 'acme', password }),
    (answer) => answer.status === 303,
  );
  t.equal(signedIn.headers.get('location'), '/dashboard/tokens', 'the password set on B signs in on A');
  t.equal((await onA.get('/dashboard/tokens')).status, 200);

  // The browser's cookie, sent to the other node as a load balancer would.
  onB.session = onA.session;
  const tokensOnB = await within1s(
    () => onB.get('/dashboard/tokens'),
    (answer) => answer.status === 200,
  );
  t.match(tokensOnB.text, 'acme', "the session made on A is accepted on B, as acme's");

  // Post, then redirect: the secret is shown on the page the form redirects to (docs/dashboard.md#a-new-tokens-secret-post-redirect-show-once).
  t.equal((await onA.submit('/dashboard/tokens', '/dashboard/tokens', { note: 'made on A' })).status, 303);
  const created = await onA.get('/dashboard/tokens');
  const fromDashboard = /id="secret" readonly value="(dp_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1];
  t.ok(fromDashboard, 'a token made on the dashboard of A');
  let counted = 0;
  await within1s(
    () => search(b!, fromDashboard!),
    (status) => status === 422 && ++counted > 0,
  );
  t.pass('is accepted by B');

  for (const node of [a!, b!, a!, b!, a!, b!]) t.equal(await search(node, secret), 422, 'counted');
  // A burst on both: a busy account reserves ahead, so both nodes hold units in hand.
  const burst = await Promise.all(Array.from({ length: 60 }, (_, index) => search(index % 2 === 0 ? a! : b!, secret)));
  t.same(new Set(burst), new Set([422]), 'the burst is counted');
  counted += 66;
  const granted = await grantedThisMonth(nats.url, 'acme');
  t.ok(granted > counted, `the ledger granted ${granted} units for ${counted} requests: units are in hand`);
  // docs/operations.md#usage-shown: each node records its units in hand each second and shares
  // them; every display takes away the sum over the live nodes, so all show the requests counted.
  const shownByCommand = await within(
    10_000,
    async () => JSON.parse(await onCluster(['accounts', 'show', 'acme'])).usage.used as number,
    (used) => used === counted,
  );
  t.equal(shownByCommand, counted, `accounts show --nats: ${counted} requests counted, not the units reserved`);
  const shown = await within(
    10_000,
    () => Promise.all([usageOn(onA), usageOn(onB)]),
    (pages) => pages.every((usage) => usage.month === counted && usage.today === counted),
  );
  t.same(
    shown,
    [
      { today: counted, month: counted },
      { today: counted, month: counted },
    ],
    "both nodes' usage pages show the cluster's count",
  );

  await onCluster(['accounts', 'update', 'acme', '--operator', 'true']);
  // The change reaches A by its replica: its console opens once it has (a 403 before, seen at load 20).
  await within1s(
    () => onA.get('/console/accounts'),
    (answer) => answer.status === 200,
  );
  const made = await onA.submit('/console/accounts', '/console/accounts', { name: 'beta', plan: 'free' });
  t.equal(made.status, 303, "an operator makes an account on A's console");
  t.match(await onCluster(['accounts', 'show', 'beta']), '"name":"beta"', "it is the cluster's");
  await within1s(
    () => onB.get('/console/accounts'),
    (answer) => answer.text.includes('beta'),
  );
  t.pass("and B's console lists it");

  const signedOut = await onB.submit('/dashboard/tokens', '/dashboard/signout', {});
  t.equal(signedOut.status, 303, 'signed out on B');
  const ended = await within1s(
    () => onA.get('/dashboard/tokens'),
    (answer) => answer.status === 303,
  );
  t.equal(ended.headers.get('location'), '/dashboard/signin', 'the session ended on B is ended on A');

  await nats.kill();
  const cutOff = await new WebClient(a!.url).get('/dashboard/signin');
  t.equal(cutOff.status, 503, 'with NATS out of reach, a page that writes a session answers 503');
  t.equal(cutOff.headers.get('retry-after'), '5');
  t.match(cutOff.text, 'Try again in a few seconds');
  await nats.restart();
  const back = await eventually(
    () => new WebClient(a!.url).get('/dashboard/signin'),
    (answer) => answer.status === 200,
    10_000,
  );
  t.equal(back.status, 200, 'and works again once NATS is back');
});
