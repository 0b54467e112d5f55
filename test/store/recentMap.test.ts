// The two-generation map behind the view cache: bounded, and a newer value always wins.
import t from 'tap';
import { RecentMap } from '../../src/store/recentMap.js';

t.test('recent map - keeps the latest value of every key within its two generations', async (t) => {
  const map = new RecentMap<string, number>(3);
  map.set('a', 1);
  map.set('b', 2);
  map.set('a', 10);
  t.equal(map.get('a'), 10, 'a newer value wins');
  map.set('c', 3); // the young generation is full: it becomes the old one
  t.equal(map.get('b'), 2, 'an old entry is still found');
  map.set('a', 11);
  t.equal(map.get('a'), 11, 'a value set after a rotation shadows the old generation');
});

t.test('recent map - entries unused for two generations are dropped, used ones survive', async (t) => {
  const map = new RecentMap<number, number>(2);
  map.set(1, 1);
  map.set(2, 2); // rotation: old = {1, 2}
  t.equal(map.get(1), 1, 'a hit in the old generation moves back to the young one');
  map.set(3, 3); // rotation: old = {1, 3}, {2} dropped
  t.equal(map.get(2), undefined, 'an entry nobody asked for is gone');
  t.equal(map.get(1), 1);
  t.equal(map.get(3), 3);
  for (let key = 10; key < 1_000; key++) map.set(key, key);
  t.equal(map.get(1), undefined, 'the map stays bounded');
  t.equal(map.get(999), 999);
});

t.test('recent map - a deleted key is gone from both generations', async (t) => {
  const map = new RecentMap<string, number>(2);
  map.set('a', 1);
  map.set('b', 2); // rotation: old = {a, b}
  map.set('a', 3); // young = {a: 3}, old still holds a: 1
  map.delete('a');
  t.equal(map.get('a'), undefined, 'neither the young value nor the old one comes back');
  t.equal(map.get('b'), 2, 'other keys stay');
});
