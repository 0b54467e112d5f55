// The password hasher (docs/dashboard.md#password-hashing): scrypt on threads of its own, off
// libuv's pool, the same keys as node:crypto's, a bounded queue that refuses what does not fit.
import { execFileSync } from 'node:child_process';
import { pbkdf2, scryptSync } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { webLimits } from '../../src/config.js';
import { type HasherLimits, isHasherBusy, PasswordHasher, type ScryptJob } from '../../src/web/passwordHasher.js';

const { cost, blockSize, parallelization, keyLength, maxmem } = webLimits.scrypt;
const job = (password: string): ScryptJob => ({
  password,
  salt: Buffer.from('a salt of sixteen').toString('base64'),
  cost,
  blockSize,
  parallelization,
  keyLength,
});

function hasherFor(t: Test, limits: Partial<HasherLimits> = {}) {
  const hasher = new PasswordHasher({ threads: 1, queued: 2, maxmem, ...limits });
  t.teardown(() => hasher.close());
  return hasher;
}

t.test('hasher - derives the key node:crypto derives, so passwords set before it still match', async (t) => {
  const hasher = hasherFor(t);
  const expected = scryptSync('correct horse battery', Buffer.from('a salt of sixteen'), keyLength, {
    cost,
    blockSize,
    parallelization,
    maxmem,
  });
  t.equal(await hasher.derive(job('correct horse battery')), expected.toString('base64'));
  await t.rejects(hasher.derive({ ...job('x'), cost: 3 }), /scrypt failed/, 'a bad parameter is an error, and the thread goes on');
  t.equal(await hasher.derive(job('correct horse battery')), expected.toString('base64'));
});

t.test("hasher - a hash is done while every thread of libuv's pool is held: it never uses the pool", async (t) => {
  const hasher = hasherFor(t);
  // Opening a FIFO for reading holds a pool thread, without CPU, until a writer opens it: four
  // hold UV_THREADPOOL_SIZE's default of four.
  const dir = mkdtempSync(join(tmpdir(), 'datapoints-pool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fifos = Array.from({ length: 4 }, (_, index) => join(dir, `fifo${index}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const held = fifos.map((fifo) => readFile(fifo));
  let poolAnswered = false;
  const behind = new Promise<void>((resolve) => pbkdf2('queued', 'behind the held threads', 1, 32, 'sha256', () => resolve())).then(() => {
    poolAnswered = true;
  });
  t.ok(await hasher.derive(job('while the pool is held')), 'the hash is done');
  t.equal(poolAnswered, false, 'while work queued on the pool still waits');
  for (const fifo of fifos) closeSync(openSync(fifo, 'w'));
  await Promise.all([...held, behind]);
});

t.test('hasher - at most `threads` run and `queued` wait; one more is refused at once, and room comes back', async (t) => {
  const hasher = hasherFor(t, { threads: 1, queued: 2 });
  const accepted = [hasher.derive(job('one')), hasher.derive(job('two')), hasher.derive(job('three'))];
  const refused = await hasher.derive(job('four')).catch((error: unknown) => error);
  t.ok(isHasherBusy(refused), 'the fourth is refused: one running, two waiting');
  t.match(refused, { message: '1 password hashes running and 2 waiting' });
  t.equal((await Promise.all(accepted)).length, 3, 'those taken are all done');
  t.ok(await hasher.derive(job('five')), 'and a later one is taken again');
});

t.test('hasher - a stopped hasher refuses what waits and what comes', async (t) => {
  const hasher = new PasswordHasher({ threads: 1, queued: 2, maxmem });
  const refusals = [t.rejects(hasher.derive(job('running')), /stopped/), t.rejects(hasher.derive(job('waiting')), /stopped/)];
  await hasher.close();
  await Promise.all(refusals);
  await t.rejects(hasher.derive(job('late')), /stopped/);
});

t.test('hasher - its threads run at the lowest priority, so that the API threads come first on a busy core', async (t) => {
  const hasher = hasherFor(t, { threads: 2 });
  await Promise.all([hasher.derive(job('one')), hasher.derive(job('two'))]);
  // The 19th field after the command in /proc/<pid>/task/<tid>/stat is the thread's nice value.
  const niceOf = (tid: string) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  const nices = readdirSync('/proc/self/task').map(niceOf);
  t.equal(nices.filter((nice) => nice === 19).length, 2, 'both hashing threads at nice 19');
  t.ok(nices.filter((nice) => nice === 0).length > 0, 'the others as they were');
});
