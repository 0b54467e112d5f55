// What the server logs (docs/http.md#access-log, "Log formats"), from a real `datapoints
// serve` process: an access line per answer without the token, the stop with its duration,
// the pretty format for terminals, and one-line usage errors for bad settings.
import { spawn } from 'node:child_process';
import t, { type Test } from 'tap';
import { cli, cliPath, lastLine } from '../helpers/cli.js';
import { searchPath, tempDataDir } from '../helpers/service.js';

interface Served {
  url: string;
  /** stdout so far. */
  output(): string;
  /** SIGTERM, then resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

function serve(t: Test, dataDir: string, env: Record<string, string>): Promise<Served> {
  const child = spawn(
    process.execPath,
    [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', dataDir, '--upstream', 'emulator'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
    },
  );
  let stdout = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(stdout);
      if (listening)
        resolve({
          url: listening[1]!,
          output: () => stdout,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening: ${stdout}`)));
  });
}

function accountWithToken(dataDir: string): string {
  t.equal(cli(['accounts', 'create', 'logged', '--data', dataDir]).status, 0);
  const created = cli(['tokens', 'create', 'logged', '--data', dataDir]);
  return lastLine(created.stdout);
}

const post = (url: string, token: string | undefined, body: string) =>
  fetch(url + searchPath, { method: 'POST', headers: token ? { authorization: `Bearer ${token}` } : {}, body });

t.test('logs - an access line per answer, never the token; a line when stopping and when stopped', async (t) => {
  const dataDir = tempDataDir(t);
  const token = accountWithToken(dataDir);
  const server = await serve(t, dataDir, {});
  const searched = await post(server.url, token, '{"resources":[{"platform":"github","type":"account","identifier":"octocat"}]}');
  const refused = await post(server.url, 'dp_not_a_real_token', '{}');
  const missing = await fetch(`${server.url}/nowhere`);
  t.equal(await server.stop(), 0);
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
  const access = lines.filter((line) => line.msg === 'request');
  const fields = (line: Record<string, unknown>) => Object.keys(line).sort().join(',');
  t.same(
    access.map((line) => [line.level, line.method, line.path, line.status, line.requestId, line.account]),
    [
      [30, 'POST', searchPath, 200, searched.headers.get('x-request-id'), 'logged'],
      [30, 'POST', searchPath, 401, refused.headers.get('x-request-id'), undefined],
      [30, 'GET', '/nowhere', 404, missing.headers.get('x-request-id'), undefined],
    ],
  );
  t.equal(fields(access[0]), 'account,level,method,ms,msg,path,requestId,service,status,time');
  t.ok(
    access.every((line) => typeof line.ms === 'number' && line.ms >= 0),
    'a duration in ms',
  );
  t.notMatch(server.output(), token, 'the token never reaches the log');
  t.notMatch(server.output(), 'dp_not_a_real_token');
  const stopping = lines.findIndex((line) => line.msg === 'stopping');
  const stopped = lines.findIndex((line) => line.msg === 'stopped');
  t.ok(stopping > 0 && stopped > stopping, 'stopping, then stopped');
  t.type(lines[stopped].ms, 'number', 'how long the stop took');
});

t.test('logs - LOG_FORMAT=pretty prints lines for a person, not JSON', async (t) => {
  const dataDir = tempDataDir(t);
  const server = await serve(t, dataDir, { LOG_FORMAT: 'pretty' });
  await fetch(`${server.url}/nowhere`);
  t.equal(await server.stop(), 0);
  const output = server.output();
  t.notMatch(output, /^\{/m, 'no JSON line');
  t.match(output, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: service started$/m);
  t.match(
    output,
    /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: request\n {4}method: "GET"\n {4}path: "\/nowhere"\n {4}status: 404\n {4}ms: [\d.]+\n {4}requestId: "[0-9a-f]{8}-0"$/m,
  );
  t.match(output, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: stopping\n\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: stopped\n {4}ms: \d+$/m);
});

t.test('logs - bad settings are one-line usage errors', async (t) => {
  const dataDir = tempDataDir(t);
  const run = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--data', dataDir, ...args], {
        env: { ...process.env, ...env },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  t.same(await run([], { LOG_FORMAT: 'fancy' }), { code: 2, stderr: "datapoints: invalid LOG_FORMAT 'fancy': use json or pretty\n" });
  t.same(await run(['--cors', 'https://app.example.com/']), {
    code: 2,
    stderr:
      "datapoints: invalid --cors: 'https://app.example.com/' is not an origin: give scheme://host[:port] (e.g. https://app.example.com), comma-separated, or *\n",
  });
  t.same(await run([], { DATAPOINTS_CORS: 'app.example.com' }), {
    code: 2,
    stderr:
      "datapoints: invalid DATAPOINTS_CORS: 'app.example.com' is not an origin: give scheme://host[:port] (e.g. https://app.example.com), comma-separated, or *\n",
  });
});
