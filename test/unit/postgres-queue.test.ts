/**
 * The `postgres` driver's queue as patched here (patches/postgres@3.4.9.patch): under steady load a pool's
 * queue of busy connections never empties; the patch drops its consumed head so it does not grow by one slot
 * per query. Order, length and remove() must stay as before through those compactions.
 */
import { expect, test } from 'bun:test';
// @ts-expect-error plain JavaScript module of the driver, no types
import Queue from '../../node_modules/postgres/src/queue.js';
import { readFileSync } from 'node:fs';

test('the patch is applied to the installed driver', () => {
  expect(readFileSync(require.resolve('../../node_modules/postgres/src/queue.js'), 'utf8')).toContain('drop the consumed head');
});

test('a queue that never empties keeps its order, length and remove() through compactions', () => {
  const q = Queue();
  const live: number[] = [];
  let next = 0;
  for (let i = 0; i < 5; i++) live.push(q.push(next++));
  for (let i = 0; i < 50_000; i++) {
    expect(q.shift()).toBe(live.shift());
    live.push(q.push(next++));
    if (i % 997 === 0) {
      // take one from the middle, as the pool's move() does
      const x = live.splice(2, 1)[0]!;
      expect(q.remove(x)).toBe(x);
      live.push(q.push(next++));
    }
    expect(q.length).toBe(live.length);
  }
  expect(q.remove(-1)).toBe(null);
  while (live.length) expect(q.shift()).toBe(live.shift());
  expect(q.length).toBe(0);
});
