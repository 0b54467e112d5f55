// The nginx configuration of docs/deployment.md#nginx, as written there, in front of the service:
// Debian's nginx on a free loopback port with its own prefix, temp and pid paths, a search, a
// WebSocket subscription, a signed-in dashboard page, and an HTTP/1.0 client through it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../process/processes.js';
import { StreamClient } from '../push/streamClient.js';
import { eventually, searchPath, startTestService, tempDataDir } from '../helpers/service.js';
import { signedIn, WebClient } from '../web/webClient.js';
import { RawConnection } from './rawConnection.js';

const nginx = '/usr/sbin/nginx';
const deploymentPage = new URL('../../docs/deployment.md', import.meta.url);

/** The page's nginx block with this test's ports in place of the documented ones. */
function documentedConfiguration(servicePort: number, nginxPort: number): string {
  const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(deploymentPage, 'utf8'))?.[1];
  if (block === undefined) throw new Error('docs/deployment.md has no nginx block');
  const withPorts = block
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${servicePort};`)
    .replace('listen 80;', `listen 127.0.0.1:${nginxPort};`);
  if (withPorts === block || !withPorts.includes(`listen 127.0.0.1:${nginxPort};`))
    throw new Error('the nginx block names no upstream or listen line to replace');
  return withPorts;
}

t.test(
  'nginx - the documented configuration carries searches, streams and the dashboard',
  { skip: !existsSync(nginx) && `no ${nginx}` },
  async (t) => {
    const ts = await startTestService(t);
    const prefix = tempDataDir(t);
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, temp));
    const port = await freePort();
    writeFileSync(
      join(prefix, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${join(prefix, 'nginx.pid')};`,
        `error_log ${join(prefix, 'error.log')} warn;`,
        'events { worker_connections 64; }',
        'http {',
        '  access_log off;',
        ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${join(prefix, temp)};`,
        ),
        documentedConfiguration(ts.service.port, port),
        '}',
      ].join('\n'),
    );
    const child = spawn(nginx, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    t.teardown(async () => {
      // SIGQUIT: nginx's graceful stop; its master waits for its worker.
      child.kill('SIGQUIT');
      await exited;
    });
    const url = `http://127.0.0.1:${port}`;
    const healthz = await eventually(
      () =>
        fetch(`${url}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      {
        timeoutMs: 20_000,
        orFail: `nginx did not answer on ${port}: ${existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : ''}`,
      },
    );
    t.equal(healthz, 200);

    const token = await ts.tokenFor('acme', { plan: 'paid' });
    const octocat = { resources: [{ platform: 'github', type: 'account', identifier: 'octocat' }] };
    const search = await fetch(url + searchPath, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(octocat),
    });
    t.equal(search.status, 200, 'a search through nginx');
    t.match(await search.json(), { data: [{ platform: 'github', type: 'account', identifier: 'octocat' }] });

    const client = await StreamClient.open(t, url, token);
    client.send({ type: 'subscribe', ...octocat });
    t.match(await client.next(), { type: 'subscribed' }, 'a WebSocket subscription through nginx');

    const browser = new WebClient(url);
    await signedIn(browser, ts.dataDir, 'acme', 'a long enough password');
    const page = await browser.get('/dashboard/tokens');
    t.equal(page.status, 200, 'a signed-in dashboard page through nginx');
    t.match(page.text, /<html/);

    // nginx answers an HTTP/1.0 client and asks the server in HTTP/1.1 (docs/deployment.md#http-1-1).
    const old = await RawConnection.open(port);
    old.write('GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n');
    t.equal((await old.next())?.status, 200, 'an HTTP/1.0 client through nginx');
    await old.closed;
  },
);
