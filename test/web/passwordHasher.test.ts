// The password hasher (docs/dashboard.md#password-hashing): scrypt on threads of its own, off
// libuv's pool, the same keys as node:crypto's, a bounded queue that refuses what does not fit.
import { scrypt, scryptSync } from 'node:crypto';
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

t.test('hasher - a hash is not queued behind libuv pool work: it runs on its own thread', async (t) => {
  const hasher = hasherFor(t);
  // Four scrypt calls of four times a password's work fill libuv's four threads (UV_THREADPOOL_SIZE's default).
  const finished: string[] = [];
  const pool = Array.from(
    { length: 4 },
    (_, index) =>
      new Promise<void>((resolve, reject) =>
        scrypt('pool work', `salt ${index}`, keyLength, { cost, blockSize, parallelization: 4, maxmem }, (error) => {
          finished.push('pool');
          return error ? reject(error) : resolve();
        }),
      ),
  );
  await hasher.derive(job('while the pool is busy'));
  finished.push('hash');
  await Promise.all(pool);
  t.equal(finished[0], 'hash', 'the hash was done before any of the pool work');
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
