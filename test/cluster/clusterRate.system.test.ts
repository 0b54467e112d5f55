// The rate limit across nodes (docs/design/cluster.md#rate-limit-across-nodes), with three `datapoints
// serve --nats` processes (one of them with two edge threads) and one nats-server: requests spread
// over the nodes are admitted at most the account's limit per window in all, and
// X-RateLimit-Remaining counts what other nodes admitted.
import t from 'tap';
import { cliInProcess, type ServerProcess, lastLine } from '../helpers/cli.js';
import { eventually } from '../helpers/eventually.js';
import { startNatsServer } from '../helpers/natsServer.js';
import { serveThreeNodes } from '../helpers/serveNodes.js';

const searchPath = '/api/v1/resources/search';

interface Answer {
  status: number;
  remaining: number;
  /** X-RateLimit-Reset: the window's end, in Unix seconds. */
  window: string;
  retryAfter: string | null;
}

/** A counted request (answered 422 once admitted, docs/api.md#a-46). */
async function search(node: ServerProcess, secret: string): Promise<Answer> {
  const response = await fetch(node.url + searchPath, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}` },
    body: '{"resources":[]}',
  });
  await response.arrayBuffer();
  return {
    status: response.status,
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    window: response.headers.get('x-ratelimit-reset') ?? '',
    retryAfter: response.headers.get('retry-after'),
  };
}

t.test('three nodes on one nats-server keep one rate window per account', async (t) => {
  const nats = await startNatsServer(t);
  const { nodes } = await serveThreeNodes(t, nats.url);
  const secretOf = async (name: string, rate: string) => {
    const created = await cliInProcess(['accounts', 'create', name, '--plan', 'paid', '--rate', rate, '--nats', nats.url]);
    t.equal(created.status, 0, created.stderr);
    return lastLine((await cliInProcess(['tokens', 'create', name, '--nats', nats.url])).stdout);
  };
  const paced = await secretOf('paced', '50/1m');
  const slow = await secretOf('slow', '20/1m');
  // Tokens reach every node in the order they were made: once the last one is in, all are.
  const probe = await secretOf('probe', '100000/1m');
  for (const node of nodes) {
    await eventually(
      () => search(node, probe),
      (answer) => answer.status === 422,
      { orFail: `${node.url} accepting the tokens` },
    );
  }

  await t.test('600 concurrent requests over three nodes admit at most 50 per window', async (t) => {
    const answers = await Promise.all(Array.from({ length: 600 }, (_, index) => search(nodes[index % 3]!, paced)));
    t.same(new Set(answers.map((answer) => answer.status)), new Set([422, 429]), 'admitted (422) or rate limited (429), nothing else');
    // Grouped by window: a burst that runs over a minute's end is in two windows.
    const admittedIn = new Map<string, number>();
    for (const answer of answers) if (answer.status === 422) admittedIn.set(answer.window, (admittedIn.get(answer.window) ?? 0) + 1);
    for (const [window, admitted] of admittedIn) t.ok(admitted <= 50, `${admitted} admitted in the window ending ${window}, at most 50`);
    t.comment(`admitted per window: ${[...admittedIn.values()].join(', ')} (each node alone would admit up to 150)`);
    t.ok(admittedIn.size >= 1, 'some requests were admitted');
    const limited = answers.filter((answer) => answer.status === 429);
    t.ok(limited.length >= 600 - 50 * admittedIn.size, `${limited.length} refused with 429`);
    t.ok(
      limited.every((answer) => answer.remaining === 0 && Number(answer.retryAfter) >= 1 && Number(answer.retryAfter) <= 60),
      'each 429 says 0 remaining and when to retry',
    );
  });

  await t.test('X-RateLimit-Remaining counts the requests other nodes admitted in the window', async (t) => {
    // Five requests and one more in one window: start in a fresh one if this one is about to end.
    // The nodes are processes whose windows follow the wall clock (no flag sets another), so the
    // edge is waited out: at most 5 s, in one run of twelve.
    const untilNextMinute = 60_000 - (Date.now() % 60_000);
    if (untilNextMinute < 5_000) await new Promise((resolve) => setTimeout(resolve, untilNextMinute + 50));
    const first: Answer[] = [];
    for (let request = 0; request < 5; request++) first.push(await search(nodes[0]!, slow));
    t.same(
      first.map((answer) => answer.remaining),
      [19, 18, 17, 16, 15],
      'one node alone counts down by one',
    );
    const other = await search(nodes[1]!, slow);
    t.equal(other.window, first[0]!.window, 'in the same window');
    t.ok(other.remaining <= 14, `another node answers ${other.remaining} remaining: the first node's five are counted`);
  });

  await Promise.all(nodes.map((node) => node.stop()));
});
