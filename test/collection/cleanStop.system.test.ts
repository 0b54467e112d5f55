// A clean stop (SIGTERM) with a collection in flight finishes it or gives it back, so that a
// restart on the same data directory serves or collects that resource at once instead of
// after its lease (docs/architecture.md#stopping). Real child processes and signals; the
// upstream holds the collection's call, so the stop comes while it is out, seen, not guessed.
import { connect } from 'node:net';
import t from 'tap';
import { defaultPolicy } from '../../src/config.js';
import { startServer } from '../helpers/cli.js';
import { gatedUpstream } from '../helpers/gatedUpstream.js';
import { provision } from '../helpers/provision.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

/** How long a collection not given back would hold its resource. */
const { leaseMs } = defaultPolicy;

async function statusOf(url: string, token: string, identifier: string): Promise<string> {
  const response = await fetch(url + searchPath, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier }] }),
  });
  const body = await response.json();
  return body.data[0].status;
}

/** Polls until the resource is available; false once `limitMs` has passed. */
async function availableWithin(url: string, token: string, identifier: string, limitMs: number): Promise<boolean> {
  return (
    (await eventually(
      () => statusOf(url, token, identifier),
      (status) => status === 'available',
      limitMs,
    )) === 'available'
  );
}

/** Resolves once the server refuses new connections: its stop has begun (the listener closes first). */
async function untilRefusing(url: string): Promise<void> {
  const { port } = new URL(url);
  const refused = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
  await eventually(refused, (isRefused) => isRefused, 60_000);
}

t.test('clean stop - a collection answering within the grace is recorded before the process exits', async (t) => {
  const data = tempDataDir(t);
  const { secret } = await provision(data, 'acme');
  const upstream = await gatedUpstream(t, { holding: true });
  const first = await startServer(t, ['--upstream', upstream.url, '--data', data]);
  t.equal(await statusOf(first.url, secret, 'octocat'), 'pending');
  await upstream.arrived(1);
  const stopped = first.stop('SIGTERM');
  await untilRefusing(first.url);
  // The call is answered only now, inside the stop's grace for collections.
  upstream.open();
  const { code, ms } = await stopped;
  t.equal(code, 0, 'exits 0');
  t.ok(ms < 5_000, `stopped within 5 s (${ms} ms)`);

  const second = await startServer(t, ['--upstream', upstream.url, '--data', data]);
  t.equal(await statusOf(second.url, secret, 'octocat'), 'available', 'the answer that came during the stop was kept');
  await second.stop('SIGTERM');
});

t.test('clean stop - a collection still out at the end of the grace is given back and collected at once after a restart', async (t) => {
  const data = tempDataDir(t);
  const { secret } = await provision(data, 'acme');
  const upstream = await gatedUpstream(t, { holding: true });
  const first = await startServer(t, ['--upstream', upstream.url, '--data', data]);
  t.equal(await statusOf(first.url, secret, 'hangs'), 'pending');
  await upstream.arrived(1);
  const { code, ms } = await first.stop('SIGTERM');
  t.equal(code, 0, 'exits 0');
  t.ok(ms < 5_000, `stopped within 5 s (${ms} ms)`);

  upstream.open();
  const second = await startServer(t, ['--upstream', upstream.url, '--data', data]);
  // Without giving back, the resource would wait for its lease to end; a third of it is plenty.
  t.ok(await availableWithin(second.url, secret, 'hangs', leaseMs / 3), 'available after the restart, long before the lease ends');
  await second.stop('SIGTERM');
});
