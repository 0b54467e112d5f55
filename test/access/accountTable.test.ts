// The shared account table: one slot per account for every view of the buffer, names kept
// for the give-back sweep, and a lock that excludes real threads (test/access/threads.test.ts).
import t from 'tap';
import { AccountTable, field, maxNameBytes } from '../../src/access/accountTable.js';

t.test('account table - every view of the buffer finds an account in the same slot', async (t) => {
  const table = AccountTable.create(8);
  const other = new AccountTable(table.buffer);
  const names = ['alpha', 'beta', 'gamma', 'delta'];
  const slots = names.map((name) => table.slotOf(name));
  t.equal(new Set(slots).size, 4, 'distinct accounts, distinct slots');
  t.same(
    names.map((name) => other.slotOf(name)),
    slots,
    'the other view claims nothing new',
  );
  t.same(
    slots.map((slot) => other.nameOf(slot)),
    names,
  );
  t.same(
    [...other.claimed()].sort((a, b) => a - b),
    [...slots].sort((a, b) => a - b),
  );
});

t.test('account table - a full table and an over-long name get no slot', async (t) => {
  const table = AccountTable.create(2);
  t.not(table.slotOf('one'), -1);
  t.not(table.slotOf('two'), -1);
  t.equal(table.slotOf('three'), -1);
  t.equal(AccountTable.create(4).slotOf('x'.repeat(maxNameBytes + 1)), -1);
  t.equal(AccountTable.create(4).slotOf(''), -1);
});

t.test('account table - a slot starts with nothing counted and its others unknown', async (t) => {
  const table = AccountTable.create(4);
  const slot = table.slotOf('fresh');
  t.same(
    [
      table.ints[slot + field.spent],
      table.ints[slot + field.granted],
      table.ints[slot + field.others],
      table.ints[slot + field.failedSignal],
    ],
    [0, 0, -1, -1],
  );
});
