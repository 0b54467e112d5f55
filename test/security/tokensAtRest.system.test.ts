// No token secret is kept anywhere but in the caller's hands (docs/api.md#a-35; src/auth/tokens.ts):
// not in the LMDB files, in no encoding, and not in anything the server or the operator
// commands print, except the one line of `tokens create` that shows it once. The server runs
// as the operator runs it, a `datapoints serve` child at the most verbose log level.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { digestToken, generateToken } from '../../src/auth/tokens.js';
import { cli, cliPath } from '../helpers/cli.js';
import { eventually, searchPath, tempDataDir } from '../helpers/service.js';

interface Serving {
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): Buffer;
  stop(): Promise<number | null>;
}

function serve(t: Test, dataDir: string): Promise<Serving> {
  const child = spawn(
    process.execPath,
    [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', dataDir, '--upstream', 'emulator'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'trace' },
    },
  );
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const listening = /listening on (http:\/\/\S+)/.exec(Buffer.concat(chunks).toString());
      if (listening) {
        resolve({
          url: listening[1]!,
          output: () => Buffer.concat(chunks),
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code} before listening:\n${Buffer.concat(chunks)}`)));
  });
}

/** The secret as text, its random part, and that part's bytes in every usual encoding. */
function encodingsOf(secret: string): Array<[string, Buffer]> {
  const random = Buffer.from(secret.slice('dp_'.length), 'base64url');
  return [
    ['the secret', Buffer.from(secret)],
    ['the secret without its prefix', Buffer.from(secret.slice('dp_'.length))],
    ['the secret in UTF-16', Buffer.from(secret, 'utf16le')],
    ['the secret as hex', Buffer.from(Buffer.from(secret).toString('hex'))],
    ['the secret as base64', Buffer.from(Buffer.from(secret).toString('base64'))],
    ['the random bytes', random],
    ['the random bytes as hex', Buffer.from(random.toString('hex'))],
    ['the random bytes as upper-case hex', Buffer.from(random.toString('hex').toUpperCase())],
    ['the random bytes as base64', Buffer.from(random.toString('base64'))],
  ];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

const body = (identifier: string) => JSON.stringify({ resources: [{ platform: 'github', type: 'account', identifier }] });

t.test('tokens - secrets never reach the data directory or any log, only their SHA-256 digests do', async (t) => {
  const dataDir = tempDataDir(t);
  /** What the operator commands printed, bar the secret line of `tokens create`. */
  const operatorOutput: string[] = [];
  const run = (...args: string[]) => {
    const result = cli([...args, '--data', dataDir]);
    t.equal(result.status, 0, `datapoints ${args.join(' ')} succeeds ${result.stderr}`.trim());
    operatorOutput.push(result.stderr);
    return result.stdout;
  };
  const createToken = () => {
    const lines = run('tokens', 'create', 'acme').trim().split('\n');
    operatorOutput.push(lines.slice(0, -1).join('\n'));
    return { id: /created token (tok_[0-9a-f]+)/.exec(lines[0]!)![1]!, secret: lines.at(-1)! };
  };
  operatorOutput.push(run('accounts', 'create', 'acme', '--quota', 'none', '--rate', '1000/1m'));
  const kept = createToken();
  const revoked = createToken();
  // Sent, never issued: an unknown token must not be written down either.
  const unknown = generateToken().secret;

  const server = await serve(t, dataDir);
  const send = async (secret: string, options: { method?: string; path?: string; scheme?: string; body?: string } = {}) => {
    const response = await fetch(server.url + (options.path ?? searchPath), {
      method: options.method ?? 'POST',
      headers: { authorization: `${options.scheme ?? 'Bearer'} ${secret}`, 'content-type': 'application/json' },
      ...(options.method === 'GET' ? {} : { body: options.body ?? body('octocat') }),
    });
    await response.arrayBuffer();
    return response.status;
  };
  // Answers of every kind, so that every path that could log has run with a token in hand.
  t.equal(await send(kept.secret), 200, 'a search');
  t.equal(await send(kept.secret, { scheme: 'bearer' }), 200, 'a search with a lower-case scheme');
  t.equal(await send(kept.secret, { body: body('flaky-upstream') }), 200, 'a collection that fails is logged');
  t.equal(await send(kept.secret, { body: '{"resources": [' }), 422, 'a body that is not JSON');
  t.equal(await send(kept.secret, { body: body('../etc/passwd') }), 422, 'an invalid identifier');
  t.equal(await send(kept.secret, { method: 'GET' }), 405, 'a wrong method');
  t.equal(await send(kept.secret, { path: '/api/v1/elsewhere' }), 404, 'an unknown path');
  t.equal(await send(revoked.secret), 200, 'the second token, before its revocation');
  t.equal(await send(unknown), 401, 'a token never issued');
  run('tokens', 'revoke', revoked.id);
  t.equal(
    await eventually(
      () => send(revoked.secret),
      (status) => status === 401,
      2_000,
    ),
    401,
    'the revoked token is refused',
  );
  t.equal(await send(revoked.secret, { scheme: 'bearer' }), 401, 'and stays refused');
  await eventually(
    async () => server.output().toString(),
    (log) => log.includes('collection failed'),
    3_000,
  );
  operatorOutput.push(run('tokens', 'list', 'acme'), run('accounts', 'show', 'acme'));
  t.equal(await server.stop(), 0, 'the server stopped cleanly, its store flushed');

  const log = server.output();
  t.match(log.toString(), /"msg":"service started"/, 'the server log was captured');
  t.match(log.toString(), /"msg":"collection failed"/, 'including the lines of failed collections');
  const files = filesUnder(dataDir);
  t.ok(files.length >= 1, `data files: ${files.map((file) => file.slice(dataDir.length)).join(', ')}`);
  const haystacks: Array<[string, Buffer]> = [
    ...files.map((file): [string, Buffer] => [`data file ${file.slice(dataDir.length)}`, readFileSync(file)]),
    ['the server output', log],
    ['the operator commands output', Buffer.from(operatorOutput.join('\n'))],
  ];
  const store = Buffer.concat(files.map((file) => readFileSync(file)));
  for (const [name, secret] of [
    ['kept', kept.secret],
    ['revoked', revoked.secret],
    ['unknown', unknown],
  ] as const) {
    for (const [form, needle] of encodingsOf(secret)) {
      for (const [where, haystack] of haystacks) t.equal(haystack.indexOf(needle), -1, `${form} of the ${name} token is not in ${where}`);
    }
  }
  t.not(store.indexOf(digestToken(kept.secret)), -1, 'the store holds the digest of the kept token');
  t.not(store.indexOf(digestToken(revoked.secret)), -1, 'and of the revoked one');
  t.equal(store.indexOf(digestToken(unknown)), -1, 'but nothing of a token it never issued');
});
