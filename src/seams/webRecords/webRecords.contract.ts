// The contract of WebRecords (docs/dashboard.md#in-a-cluster): what every way of writing the
// dashboard's invites, passwords and sessions must do, each change readable once it resolves; and
// of the sign-in attempts every implementation's node counts in its own LMDB
// (docs/dashboard.md#rate-limits): attempts made at once never pass on the same count.
import type { Test } from 'tap';
import { webLimits } from '../../config.js';
import type { AttemptReservation, PasswordRecord, WebRecords, WebStore } from './webStore.js';
import { digestSecret, newSecret } from '../../web/secrets.js';

export interface WebRecordsUnderTest {
  records: WebRecords;
  /** Where the node reads: changes must be there when the write resolves. */
  store: WebStore;
  /** Creates an account the records may name. */
  addAccount(name: string): Promise<void>;
}

export const password: PasswordRecord = {
  salt: 'c2FsdA==',
  hash: 'aGFzaA==',
  cost: 16,
  blockSize: 8,
  parallelization: 1,
  keyLength: 32,
  setAt: '2026-11-26T00:00:00.000Z',
};

const digest = () => digestSecret(newSecret());

/** Run on the LMDB alone (test/web/webRecords.test.ts) and on the cluster's buckets (test/cluster/webReplica.system.test.ts). */
export function webRecordsContract(t: Test, name: string, open: (t: Test) => Promise<WebRecordsUnderTest>): void {
  t.test(`${name} - an invite is taken once, sets the password and ends the account's sessions`, async (t) => {
    const { records, store, addAccount } = await open(t);
    await addAccount('alice');
    const invite = digest();
    await records.addInvite(invite, { account: 'alice', expiresAt: 2_000 });
    store.refresh();
    t.same(store.invite(invite), { account: 'alice', expiresAt: 2_000 }, 'readable once written');
    const [signedIn, other, visitor] = [digest(), digest(), digest()];
    await records.putSession(signedIn, { account: 'alice', csrf: 'a', expiresAt: 5_000 });
    await records.putSession(other, { account: 'bob', csrf: 'b', expiresAt: 5_000 });
    await records.putSession(visitor, { account: null, csrf: 'c', expiresAt: 5_000 });
    t.equal(await records.redeemInvite(invite, 1_000, password), 'alice');
    store.refresh();
    t.same(store.password('alice'), password);
    t.equal(store.invite(invite), undefined, 'the invite is gone');
    t.equal(store.session(signedIn), undefined, "the account's session ended with the new password");
    t.ok(store.session(other), "another account's stays");
    t.ok(store.session(visitor), 'a visitor session stays');
    t.equal(await records.redeemInvite(invite, 1_000, { ...password, hash: 'b3RoZXI=' }), undefined, 'not twice');
    store.refresh();
    t.same(store.password('alice'), password, 'the second try changed nothing');
  });

  t.test(`${name} - an expired, unknown or orphaned invite sets nothing`, async (t) => {
    const { records, store, addAccount } = await open(t);
    await addAccount('alice');
    const expired = digest();
    await records.addInvite(expired, { account: 'alice', expiresAt: 1_000 });
    t.equal(await records.redeemInvite(expired, 1_000, password), undefined, 'expired at its time');
    t.equal(await records.redeemInvite(digest(), 0, password), undefined, 'unknown');
    const orphan = digest();
    await records.addInvite(orphan, { account: 'nobody', expiresAt: 2_000 });
    t.equal(await records.redeemInvite(orphan, 0, password), undefined, 'of no account');
    store.refresh();
    t.equal(store.password('alice'), undefined);
    t.equal(store.password('nobody'), undefined);
  });

  t.test(`${name} - a session is written, rotated and removed`, async (t) => {
    const { records, store } = await open(t);
    const [visitor, signedIn] = [digest(), digest()];
    await records.putSession(visitor, { account: null, csrf: 'v', expiresAt: 9_000 });
    store.refresh();
    t.same(store.session(visitor), { account: null, csrf: 'v', expiresAt: 9_000 });
    await records.putSession(signedIn, { account: 'alice', csrf: 's', expiresAt: 9_000 }, visitor);
    store.refresh();
    t.equal(store.session(visitor), undefined, 'the rotated session is gone');
    t.same(store.session(signedIn), { account: 'alice', csrf: 's', expiresAt: 9_000 });
    await records.removeSession(signedIn);
    store.refresh();
    t.equal(store.session(signedIn), undefined);
    await records.removeSession(signedIn);
    t.pass('removing it again is no error');
  });

  t.test(`${name} - sign-in attempts made at once are each counted before any is checked: no more pass than the rule allows`, async (t) => {
    const { store } = await open(t);
    const keys = [`account:${attemptRule.account}`, `address:${attemptRule.address}`];
    const counted = await raceAttempts(store, attemptRule.attempts, 1_000);
    t.equal(counted.filter((one) => one.reserved).length, attemptRule.refuseAfter, 'as many counted as the rule allows, no more');
    t.same(countsSeen(counted), [...Array(attemptRule.refuseAfter).keys()], 'each on its own count');
    store.refresh();
    for (const key of keys) t.same(store.attempts(key), { failures: attemptRule.refuseAfter, since: 1_000 }, key);
    const refused = counted.find((one) => !one.reserved);
    t.same(refused, { reserved: false, earlier: attemptRule.refuseAfter, windowEnds: 1_000 + attemptRule.windowMs, since: [] });
  });
}

/** The race every implementation runs: 150 attempts at once on one name from one address (issue 28's flood). */
export const attemptRule = {
  windowMs: webLimits.signin.windowMs,
  refuseAfter: webLimits.signin.refuseAfter,
  attempts: 150,
  account: 'alice',
  address: '127.0.0.1',
} as const;

/** Makes `count` attempts of `attemptRule` at once on `store`, as parallel sign-ins do. */
export function raceAttempts(store: WebStore, count: number, now: number): Promise<AttemptReservation[]> {
  const keys = [`account:${attemptRule.account}`, `address:${attemptRule.address}`];
  return Promise.all(Array.from({ length: count }, () => store.reserveAttempt(keys, now, attemptRule)));
}

/** The counts the reserved attempts found before them, in order. */
export function countsSeen(counted: readonly AttemptReservation[]): number[] {
  return counted
    .filter((one) => one.reserved)
    .map((one) => one.earlier)
    .sort((a, b) => a - b);
}
