/**
 * The echo of a view's own update is told apart from another person's change: a gallery, kanban
 * or calendar that already shows its update does not read all its rows again for it.
 */
import { expect, test } from 'bun:test';
import { isOwnEcho, noteOwnWrite } from '../../web/src/features/views/own-writes';

const idOf = (row: Record<string, unknown>) => String(row.id);

test('the echo of an update with the values sent is own, once', () => {
  noteOwnWrite('p1', 'Track', '4', { Stage: 'Released' });
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 4, Name: 'Restless and Wild', Stage: 'Released' }], [])).toBe(true);
  // The write is forgotten once its echo came: the same change again is someone else's.
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 4, Name: 'Restless and Wild', Stage: 'Released' }], [])).toBe(false);
});

test('an echo that agrees with the saved row is own, also when the server spelled the sent value its way', () => {
  const saved = noteOwnWrite('p1', 'Event', '1', { Day: '2024-01-05' });
  saved({ id: 1, Day: '2024-01-05T00:00:00.000Z', Title: 'Launch' });
  expect(isOwnEcho('p1', 'Event', idOf, 'update', [{ id: 1, Day: '2024-01-05T00:00:00.000Z', Title: 'Launch' }], [])).toBe(true);
});

test('other changes are not own: other values, other rows, other tables or projects, inserts and removals', () => {
  noteOwnWrite('p1', 'Track', '7', { Stage: 'Mixing' });
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 7, Stage: 'Demo' }], [])).toBe(false);
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 8, Stage: 'Mixing' }], [])).toBe(false);
  expect(isOwnEcho('p1', 'Album', idOf, 'update', [{ id: 7, Stage: 'Mixing' }], [])).toBe(false);
  expect(isOwnEcho('p2', 'Track', idOf, 'update', [{ id: 7, Stage: 'Mixing' }], [])).toBe(false);
  expect(isOwnEcho('p1', 'Track', idOf, 'insert', [{ id: 7, Stage: 'Mixing' }], [])).toBe(false);
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [], ['7'])).toBe(false);
  // One own row among others' rows: the view reads again.
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 7, Stage: 'Mixing' }, { id: 9, Stage: 'Demo' }], [])).toBe(false);
  // The write is still there for its own echo.
  expect(isOwnEcho('p1', 'Track', idOf, 'update', [{ id: 7, Stage: 'Mixing' }], [])).toBe(true);
});
