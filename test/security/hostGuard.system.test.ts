// The host guard with its real connector (docs/host-safety.md#tests), in a network namespace
// whose only interface is loopback, so that nothing the guard lets through can leave the
// machine: a public address it allows fails with ENETUNREACH; a rebinding resolver's private
// answer is refused; a loopback HTTPS server with its own certificate, named in the namespace's
// /etc/hosts, is refused as loopback, and reached through the allow-list entry 127.0.0.1/32 with
// TLS checked against the host name. The probe (test/security/hostGuardProbe.ts) runs in the
// namespace; this file sets it up and reads what it prints.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';

const root = fileURLToPath(new URL('../../', import.meta.url));
const hasCommand = (command: string, ...args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
// Root is how the machine runs the suite, not something to install: without it the test says so
// and skips. A missing command fails, naming what to install (docs/testing.md#requirements).
const notRoot = process.getuid?.() !== 0 ? 'needs root, for ip netns: run the system tier as root' : undefined;

const namespaceEtc = '/etc/netns';

/** A namespace with loopback up and nothing else, its /etc/hosts naming the test's hosts; removed at teardown. */
function loopbackOnlyNamespace(t: Test): string {
  const name = `datapoints-hostguard-${process.pid}`;
  const etc = join(namespaceEtc, name);
  const etcWasThere = existsSync(namespaceEtc);
  execFileSync('ip', ['netns', 'add', name]);
  t.teardown(() => {
    execFileSync('ip', ['netns', 'delete', name]);
    rmSync(etcWasThere ? etc : namespaceEtc, { recursive: true, force: true });
  });
  execFileSync('ip', ['netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up']);
  // `ip netns exec` mounts the files of /etc/netns/NAME/ over /etc/ for the command it runs.
  mkdirSync(etc, { recursive: true });
  writeFileSync(join(etc, 'hosts'), '127.0.0.1 localhost\n127.0.0.1 social.example\n127.0.0.1 other.example\n');
  return name;
}

/** A self-signed certificate for social.example, in a temp directory removed at teardown. */
function certificate(t: Test): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-hostguard-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=social.example',
      '-addext',
      'subjectAltName=DNS:social.example',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

t.test('host guard - with the real connector, in a namespace with loopback alone', { skip: notRoot ?? false }, async (t) => {
  t.ok(hasCommand('ip', 'netns', 'list'), 'ip netns works (apt-get install iproute2)');
  t.ok(hasCommand('openssl', 'version'), 'openssl makes the certificate (apt-get install openssl)');
  const namespace = loopbackOnlyNamespace(t);
  const { cert, key } = certificate(t);
  const probe = spawnSync(
    'ip',
    [
      'netns',
      'exec',
      namespace,
      process.execPath,
      `--import=${join(root, 'test/loader/register.mjs')}`,
      join(root, 'test/security/hostGuardProbe.ts'),
      cert,
      key,
    ],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
  t.equal(probe.status, 0, `the probe ran: ${probe.stderr}`);
  const result = JSON.parse(probe.stdout);
  t.same(result.interfaces, ['lo'], 'the probe saw loopback alone');

  t.same(
    result.publicAddresses.map((outcome: { code?: string }) => outcome.code),
    ['ENETUNREACH', 'ENETUNREACH'],
    'a public IPv4 and IPv6 address are let through and dialed: no route, nothing sent',
  );
  t.match(
    result.rebinding,
    [{ code: 'ENETUNREACH' }, { message: 'host refused: resolves to 10.0.0.5, a private address (10.0.0.0/8)' }],
    'rebinding: the public answer is dialed, the private one refused',
  );

  t.same(
    result.loopbackRefused,
    [{ message: 'host refused: resolves to 127.0.0.1, a loopback address (127.0.0.0/8)' }],
    'the system resolver found it on loopback: refused',
  );
  const [allowed, moved, otherName, plain] = result.loopbackAllowed;
  t.same(allowed, { status: 200, body: '{"ok":true}' }, 'allowed by 127.0.0.1/32: answered over TLS');
  t.same(moved, { status: 302, body: '', location: 'https://elsewhere.example/landing' }, 'a redirect is returned, not followed');
  t.equal(otherName.code, 'ERR_TLS_CERT_ALTNAME_INVALID', 'the certificate is checked against the host name, not the address');
  t.same(plain, { message: 'host refused: http:// is not https' });
  t.equal(result.systemCas[0].code, 'DEPTH_ZERO_SELF_SIGNED_CERT', "without the test's CA the system's CAs decide");
  t.same(result.hits, ['/', '/moved'], 'the server saw the two allowed calls alone');
});
