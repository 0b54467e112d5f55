// The admission filter in front of the view cache: a key passes on its second recent sighting.
import t from 'tap';
import { SeenTwiceFilter } from '../../src/store/seenTwiceFilter.js';

t.test('seen-twice filter - a key is admitted from its second sighting on, each key on its own', async (t) => {
  const filter = new SeenTwiceFilter(1024);
  t.equal(filter.admit('github/account/octocat'), false, 'first sighting');
  t.equal(filter.admit('github/account/octocat'), true, 'second sighting');
  t.equal(filter.admit('github/account/octocat'), true, 'and every one after');
  t.equal(filter.admit('x/account/jack'), false, 'another key starts over');
  t.equal(filter.admit(''), false, 'even the empty key is not mistaken for an empty slot');
  t.equal(filter.admit(''), true);
});

t.test('seen-twice filter - a slot taken by another key forgets the key it held', async (t) => {
  // With two slots, of any three keys two share a slot.
  const sharesSlot = (first: string, second: string) => {
    const trial = new SeenTwiceFilter(2);
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
  const filter = new SeenTwiceFilter(2);
  t.equal(filter.admit(first), false);
  t.equal(filter.admit(second), false, 'the second key is new to the slot');
  t.equal(filter.admit(first), false, 'and the first, pushed out, is new again');
  t.equal(filter.admit(first), true, 'until it is seen twice in a row');
});
