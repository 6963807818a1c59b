/** Filters and sorts built in the grid toolbar become the where language and the sort parameter. */
import { expect, test } from 'bun:test';
import { opsFor, toSort, toWhere } from '../../web/src/features/grid/query-builder';

test('filters become where terms joined by ~and; incomplete ones are left out', () => {
  expect(toWhere([{ column: 'GenreId', op: 'eq', value: '1' }, { column: 'Name', op: 'like', value: 'love' }, { column: '', op: 'eq', value: 'x' }, { column: 'Composer', op: 'eq', value: '' }])).toBe('(GenreId,eq,1)~and(Name,like,%love%)');
  expect(toWhere([{ column: 'Composer', op: 'blank', value: '' }])).toBe('(Composer,blank)');
  expect(toWhere([], { column: 'Name', text: ' rock ' })).toBe('(Name,like,%rock%)');
  expect(toWhere([], { column: null, text: 'rock' })).toBe('');
});

test('sorts become the sort parameter', () => {
  expect(toSort([{ column: 'Milliseconds', desc: true }, { column: 'Name', desc: false }, { column: '', desc: true }])).toBe('-Milliseconds,Name');
});

test("'is checked' is offered for checkboxes only, and checkboxes get no order or pattern operators", () => {
  expect(opsFor('boolean').map((o) => o.op)).toEqual(['eq', 'neq', 'blank', 'notblank', 'checked', 'notchecked']);
  for (const kind of ['string', 'integer', 'date', 'json', undefined]) {
    const ops = opsFor(kind).map((o) => o.op);
    expect(ops).not.toContain('checked');
    expect(ops).not.toContain('notchecked');
    expect(ops).toContain('like');
  }
});
