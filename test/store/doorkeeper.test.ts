// The admission filter in front of the view cache: a key passes on its second recent sighting.
import t from 'tap';
import { Doorkeeper } from '../../src/store/doorkeeper.js';

t.test('doorkeeper - a key is admitted from its second sighting on, each key on its own', async (t) => {
  const doorkeeper = new Doorkeeper(1024);
  t.equal(doorkeeper.admit('github/account/octocat'), false, 'first sighting');
  t.equal(doorkeeper.admit('github/account/octocat'), true, 'second sighting');
  t.equal(doorkeeper.admit('github/account/octocat'), true, 'and every one after');
  t.equal(doorkeeper.admit('x/account/jack'), false, 'another key starts over');
  t.equal(doorkeeper.admit(''), false, 'even the empty key is not mistaken for an empty slot');
  t.equal(doorkeeper.admit(''), true);
});

t.test('doorkeeper - a slot taken by another key forgets the key it held', async (t) => {
  // With two slots, of any three keys two share a slot.
  const sharesSlot = (first: string, second: string) => {
    const trial = new Doorkeeper(2);
    trial.admit(first);
    trial.admit(second);
    return !trial.admit(first);
  };
  const keys = ['github/account/a', 'github/account/b', 'github/account/c'];
  const pair = keys
    .flatMap((first) => keys.filter((second) => second !== first).map((second) => [first, second] as const))
    .find(([first, second]) => sharesSlot(first, second));
  t.ok(pair, 'two of three keys share one of two slots');
  const [first, second] = pair!;
  const doorkeeper = new Doorkeeper(2);
  t.equal(doorkeeper.admit(first), false);
  t.equal(doorkeeper.admit(second), false, 'the second key is new to the slot');
  t.equal(doorkeeper.admit(first), false, 'and the first, pushed out, is new again');
  t.equal(doorkeeper.admit(first), true, 'until it is seen twice in a row');
});
