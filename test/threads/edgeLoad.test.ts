// The edges' load board (src/threads/edgeLoad.ts): each edge writes its slot, the resource
// thread reads the busiest, through the same shared memory on either side.
import t from 'tap';
import { EdgeLoadBoard } from '../../src/threads/edgeLoad.js';

t.test('edge load - the busiest edge is read, from a board made on the other side of the buffer', (t) => {
  const board = new EdgeLoadBoard(3);
  const edgeSide = new EdgeLoadBoard(board.buffer);
  t.equal(board.busiest(), 0, 'nothing written: idle');
  edgeSide.write(0, 0.25);
  edgeSide.write(2, 0.75);
  t.equal(board.busiest(), 0.75);
  edgeSide.write(2, 0);
  t.equal(board.busiest(), 0.25, 'a stopped edge clears its slot');
  edgeSide.write(1, 1.4);
  t.equal(board.busiest(), 1, 'a reading past 1 (a sample taken late) counts as fully busy');
  edgeSide.write(1, -0.1);
  t.equal(board.busiest(), 0.25);
  t.end();
});
