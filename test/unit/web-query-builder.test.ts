/** Filters and sorts built in the grid toolbar become the where language and the sort parameter. */
import { expect, test } from 'bun:test';
import { fromWhere, opsFor, toSort, toWhere } from '../../web/src/features/grid/query-builder';
import { containedText, containsPattern } from '../../web/src/lib/like-pattern';

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
  expect(opsFor({ kind: 'boolean' }).map((o) => o.op)).toEqual(['eq', 'neq', 'blank', 'notblank', 'checked', 'notchecked']);
  for (const kind of ['string', 'integer', 'date', 'json', undefined]) {
    const ops = opsFor({ kind }).map((o) => o.op);
    expect(ops).not.toContain('checked');
    expect(ops).not.toContain('notchecked');
    expect(ops).toContain('like');
  }
});

test('select columns get no order operators: their choices have no order (the server refuses them too)', () => {
  for (const uidt of ['SingleSelect', 'MultiSelect']) {
    expect(opsFor({ kind: 'string', uidt }).map((o) => o.op)).toEqual(['eq', 'neq', 'like', 'nlike', 'blank', 'notblank']);
  }
  expect(opsFor({ kind: 'string', uidt: 'SingleLineText' }).map((o) => o.op)).toContain('gt');
});

test('contains is literal: the text\'s own %, _ and \\ are escaped, and read back into the builder', () => {
  expect(toWhere([{ column: 'Name', op: 'like', value: '50%_a\\b' }])).toBe('(Name,like,%50\\%\\_a\\\\b%)');
  expect(toWhere([], { column: 'Name', text: '100%' })).toBe('(Name,like,%100\\%%)');
  expect(fromWhere('(Name,like,%50\\%\\_a\\\\b%)')).toEqual([{ column: 'Name', op: 'like', value: '50%_a\\b' }]);
  // A pattern with wildcards of its own needs the raw editor.
  expect(fromWhere('(Name,like,%a_b%)')).toBeNull();
  expect(fromWhere('(Name,like,%a%b%)')).toBeNull();
  expect(containedText('%plain%')).toBe('plain');
  expect(containsPattern('a_b')).toBe('%a\\_b%');
});
