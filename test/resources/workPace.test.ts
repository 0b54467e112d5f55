// The pace of resource work: many pieces a turn while nobody searches, few while searches
// arrive, back to many once searching has been quiet for the configured time.
import t from 'tap';
import { WorkPace } from '../../src/resources/workPace.js';

const pace = { idle: 64, searching: 2, quietAfterMs: 250 };

t.test('work pace - idle until a search, slow while searching, idle again once quiet', async (t) => {
  let now = 1_000_000;
  const workPace = new WorkPace(() => now, pace);
  t.equal(workPace.perTurn(), 64, 'no search yet: a backlog drains at full pace');
  workPace.searched(now);
  t.equal(workPace.perTurn(), 2, 'a search just arrived');
  now += 249;
  t.equal(workPace.perTurn(), 2, 'still searching within the quiet time');
  workPace.searched(now);
  now += 249;
  t.equal(workPace.perTurn(), 2, 'every search extends it');
  now += 1;
  t.equal(workPace.perTurn(), 64, 'quiet for the whole quiet time: full pace again');
});

t.test('work pace - the defaults keep a search waiting behind at most a few steps', async (t) => {
  const workPace = new WorkPace(() => 0);
  workPace.searched(0);
  t.ok(workPace.perTurn() <= 4);
  const idle = new WorkPace(() => 0);
  t.ok(idle.perTurn() >= 16);
});
