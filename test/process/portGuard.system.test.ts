// One datapoints process per port (docs/operations.md#ports), with real processes: uWS binds
// with SO_REUSEPORT, so without the guard a second server would bind and share the traffic.
import { createServer } from 'node:net';
import t from 'tap';
import { guardPort } from '../../src/http/portGuard.js';
import { startServer } from '../helpers/cli.js';
import { provision } from '../helpers/provision.js';
import { searchPath, tempDataDir } from '../helpers/service.js';
import { freePort, portIsFree, watchCli } from './processes.js';

const body = JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });
const inUse = (port: number) => `datapoints: port ${port} is in use\n`;

t.test('port guard - a second serve on the port of a running one exits 1 with one line', async (t) => {
  const data = tempDataDir(t);
  const { secret } = await provision(data, 'acme');
  const first = await startServer(t, ['--data', data, '--upstream', 'emulator']);
  const port = Number(new URL(first.url).port);
  const second = watchCli(t, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', tempDataDir(t), '--upstream', 'emulator']);
  t.same(await second.exited, { code: 1, signal: null });
  t.equal(second.stderr(), inUse(port));
  t.equal(second.stdout(), '', 'it never printed listening');
  // Every connection still reaches the first server: a second one on its own data would say 401.
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await fetch(first.url + searchPath, { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body });
    statuses.push(response.status);
  }
  t.same(statuses, [200, 200, 200, 200, 200, 200]);
  t.equal((await first.stop()).code, 0);
});

t.test('port guard - a port held by a program without SO_REUSEPORT gives the same line, no stack', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve));
  t.teardown(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  for (const args of [
    ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', tempDataDir(t)],
    ['emulator', '--port', String(port)],
  ]) {
    const refused = watchCli(t, args);
    t.same(await refused.exited, { code: 1, signal: null }, args.join(' '));
    t.equal(refused.stderr(), inUse(port), args.join(' '));
  }
});

t.test('port guard - the per-port lock refuses a datapoints process even while the port itself is free', async (t) => {
  const port = await freePort();
  const guard = await guardPort('127.0.0.1', port);
  t.ok(guard.ok, 'this process holds the lock');
  t.teardown(() => guard.ok && guard.release());
  t.equal(await portIsFree(port), true, 'the probe released the port itself');
  const racer = watchCli(t, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', tempDataDir(t)]);
  t.same(await racer.exited, { code: 1, signal: null });
  t.equal(racer.stderr(), inUse(port));
});

t.test(
  'port guard - two servers started at the same moment on one port: exactly one listens, and after SIGKILL the port is usable again',
  async (t) => {
    const port = await freePort();
    const dirs = [tempDataDir(t), tempDataDir(t)];
    const args = (data: string) => ['serve', '--host', '127.0.0.1', '--port', String(port), '--data', data, '--upstream', 'emulator'];
    const racers = dirs.map((data) => watchCli(t, args(data)));
    const outcomes = await Promise.all(
      racers.map((racer) =>
        Promise.race([
          racer.waitFor(/listening on /).then(() => 'listening'),
          racer.exited.then(({ code }) => `exit ${code}: ${racer.stderr()}`),
        ]),
      ),
    );
    t.same([...outcomes].sort(), [`exit 1: ${inUse(port)}`, 'listening']);

    // The lock goes with the process: the winner killed -9, a server on its port and its data listens.
    const winner = outcomes.indexOf('listening');
    racers[winner]!.child.kill('SIGKILL');
    await racers[winner]!.exited;
    const second = watchCli(t, args(dirs[winner]!));
    await second.waitFor(new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`, 'm'));
    second.child.kill('SIGTERM');
    t.same(await second.exited, { code: 0, signal: null });
  },
);

t.test('port guard - port 0 needs no lock, and an address not on this machine is one line', async (t) => {
  t.same(await guardPort('127.0.0.1', 0).then((guard) => guard.ok), true);
  const refused = watchCli(t, ['serve', '--host', '192.0.2.1', '--port', String(await freePort()), '--data', tempDataDir(t)]);
  t.same(await refused.exited, { code: 1, signal: null });
  t.equal(refused.stderr(), 'datapoints: cannot listen on 192.0.2.1: no such address on this machine\n');
});
