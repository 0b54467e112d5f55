// An edge thread that ends is replaced (docs/guarantees.md#an-edge-thread-that-ends), as a real
// process: with 2 edges and with 1, under a steady keep-alive search load, one edge made to fail
// (test/threads/fixtures/failingEdge.mjs: an error nothing handles, or its heap filled) is
// replaced and every search is answered 200; a client on the failing edge is told
// `Connection: close` and reconnects once. An edge that
// fails at once every time ends the node with a clear error (docs/guarantees.md#restart-storms).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import t from 'tap';
import { Pool } from 'undici';
import { provision, unlimitedPaid } from '../helpers/provision.js';
import { parseExposition, sampleValue } from '../metrics/exposition.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';
import { fixture, serve } from './serverProcess.js';

const resource = (identifier: string) => ({ platform: 'github', type: 'account', identifier });

async function search(pool: Pool, secret: string, identifier: string) {
  const response = await pool.request({
    path: searchPath,
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resources: [resource(identifier)] }),
  });
  await response.body.text();
  return `${response.statusCode}${response.headers.connection === 'close' ? ' close' : ''}`;
}

/** The log lines (JSON, LOG_FORMAT=json) whose message is `msg`. */
function logLines(stdout: string, msg: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === msg);
}

const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

const endings: Array<{ threads: number; how: string; trigger: string; reason: RegExp; env: Record<string, string> }> = [
  { threads: 2, how: 'an error nothing handles', trigger: 'fail-this-thread', reason: /^made to fail by the test$/, env: {} },
  { threads: 1, how: 'an error nothing handles', trigger: 'fail-this-thread', reason: /^made to fail by the test$/, env: {} },
  {
    threads: 2,
    how: 'its heap past 85 % of its limit',
    trigger: 'fill-this-thread',
    reason: /^edge thread \d: heap at \d+ MiB of its 96 MiB limit$/,
    // A limit small enough that filling the heap costs the machine little.
    env: { FAILING_EDGE_HEAP_MIB: '96' },
  },
];

for (const { threads, how, trigger, reason, env } of endings) {
  t.test(
    `edge restart - --threads ${threads}, ${how}: the edge is replaced under keep-alive load, and every search is answered 200`,
    async (t) => {
      const data = tempDataDir(t);
      const account = await provision(data, 'steady', { ...unlimitedPaid, quota: null });
      // Info, for the line that says the replacement listens; JSON, to read the lines.
      const server = await serve(
        t,
        ['--data', data, '--upstream', 'emulator', '--threads', String(threads), '--metrics', '127.0.0.1:0'],
        ['--import', fixture('failingEdge.mjs')],
        {
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
          ...env,
        },
      );
      const answers = new Map<string, number>();
      const failures = new Map<string, number>();
      let stopping = false;
      // A client: one keep-alive connection, searching one after another until the test is done.
      const steadily = async (pool: Pool, identifier: string) => {
        while (!stopping) {
          try {
            tally(answers, await search(pool, account.secret, identifier));
          } catch (error) {
            tally(failures, (error as { code?: string }).code ?? String(error));
          }
          await pause(5);
        }
      };
      const clients = Array.from({ length: 8 }, () => new Pool(server.url, { connections: 1 }));
      // The connection whose edge is made to fail: it must be told to reconnect, and reconnect once.
      const doomed = new Pool(server.url, { connections: 1 });
      let doomedConnects = 0;
      doomed.on('connect', () => void doomedConnects++);
      const readiness = new Pool(server.url, { connections: 1 });
      const readyAnswers = new Map<string, number>();
      const watchReadiness = async () => {
        while (!stopping) {
          try {
            const response = await readiness.request({ path: '/readyz', method: 'GET' });
            tally(readyAnswers, `${response.statusCode} ${await response.body.text()}`);
          } catch (error) {
            tally(readyAnswers, (error as { code?: string }).code ?? String(error));
          }
          await pause(5);
        }
      };
      const load = [...clients.map((pool) => steadily(pool, 'octocat')), watchReadiness()];
      // Every client answered before the failure: the load is steady.
      await eventually(
        () => answers.get('200') ?? 0,
        (count) => count >= 80,
        { timeoutMs: 60_000, orFail: 'searches answered before the failure' },
      );
      t.equal(await search(doomed, account.secret, trigger), '200', 'the search that makes its edge fail is answered');
      load.push(steadily(doomed, 'octocat'));
      await eventually(
        () => logLines(server.stdout(), 'edge thread replaced').length === 1 && doomedConnects === 2,
        (replaced) => replaced,
        { timeoutMs: 60_000, orFail: 'the edge replaced and the doomed client reconnected' },
      );
      // Searches go on over the replacement for a while.
      const before = answers.get('200') ?? 0;
      await eventually(
        () => answers.get('200') ?? 0,
        (count) => count >= before + 80,
        { timeoutMs: 60_000, orFail: 'searches answered after the replacement' },
      );
      stopping = true;
      await Promise.all(load);
      await Promise.all([...clients, doomed, readiness].map((pool) => pool.close()));
      const replaced = logLines(server.stdout(), 'edge thread replaced')[0];
      t.comment(
        `replacement listening after ${replaced?.ms} ms; answers ${JSON.stringify(Object.fromEntries(answers))}; failures ${JSON.stringify(Object.fromEntries(failures))}`,
      );

      t.same(Object.fromEntries(failures), {}, 'no search failed: no reset, no refused connection');
      t.same(
        [...answers.keys()].sort(),
        (answers.has('200 close') ? ['200', '200 close'] : ['200']).sort(),
        'every search answered 200; the failing edge adds Connection: close to its last answers',
      );
      t.ok((answers.get('200 close') ?? 0) >= 1, 'the doomed client at least was told to reconnect');
      t.equal(doomedConnects, 2, 'the doomed client reconnected once, after its answer');
      t.same([...readyAnswers.keys()], ['200 {"ready":true,"problems":[]}'], '/readyz stayed true throughout');
      const ended = logLines(server.stdout(), 'edge thread ended; another takes its place');
      t.equal(ended.length, 1, 'the log says so once');
      // From everything printed: with info logs, a log line may come between the two address lines.
      const metricsLine = server
        .stdout()
        .split('\n')
        .find((line) => line.startsWith('metrics on '));
      const metricsUrl = metricsLine!.slice('metrics on '.length);
      const samples = parseExposition(await (await fetch(metricsUrl)).text());
      t.equal(sampleValue(samples, 'datapoints_edge_threads_replaced_total', {}), 1, '/metrics counts the replacement');
      t.match(ended[0], { level: 40, reason, waitMs: 0, stack: String });
      t.equal(await server.stop(), 0, 'the server, handed over edge and replacement included, stops cleanly');
    },
  );
}

t.test(
  'edge restart - an edge that fails at once every time: replaced 5 times with growing waits, then the node stops, exit 1',
  async (t) => {
    const data = tempDataDir(t);
    const account = await provision(data, 'storm');
    const marks = mkdtempSync(join(tmpdir(), 'edge-marks-'));
    t.teardown(() => import('node:fs').then((fs) => fs.rmSync(marks, { recursive: true, force: true })));
    const server = await serve(t, ['--data', data, '--upstream', 'emulator', '--threads', '2'], ['--import', fixture('failingEdge.mjs')], {
      LOG_FORMAT: 'json',
      FAILING_EDGE_MARKS: marks,
    });
    const pool = new Pool(server.url, { connections: 1 });
    t.equal(await search(pool, account.secret, 'fail-this-thread'), '200');
    await pool.destroy();
    t.equal(await server.exited, 1, 'exit 1');
    const ended = logLines(server.stdout(), 'edge thread ended; another takes its place');
    t.same(
      ended.map((line) => line.waitMs),
      [0, 250, 500, 1000, 2000],
      'five replacements, each waiting twice as long as the one before',
    );
    t.match(ended.slice(1), Array(4).fill({ reason: 'made to fail at once by the test' }));
    t.match(logLines(server.stdout(), 'edge threads keep ending: the server stops'), [
      {
        level: 60,
        err: {
          message: /^edge thread \d ended 6 times in a row, each within 10 s of listening \(last: made to fail at once by the test\)$/,
        },
      },
    ]);
  },
);
