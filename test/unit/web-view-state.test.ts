/**
 * A saved view's query_params and the UI state, both ways: filter rows from the where language (and
 * what stays raw), sorts, fields laid out in the view's order with widths, SQL names turned into
 * API names, the grid state a view holds and the query_params it makes, card fields, lane wheres,
 * lane order, who may change views.
 */
import { expect, test } from 'bun:test';
import { aliasQueryParams, andWhere, cardFields, cardMenu, layoutFields, moveItem, parseSort, parseWhere, toViewFields } from '../../web/src/features/views/view-state';
import { gridStateOf, queryParamsOf } from '../../web/src/features/views/view-binding';
import { otherWhere, valueWhere } from '../../web/src/features/views/lane-where';
import { mapWhereColumns } from '../../common/where-columns';
import { laneOrder } from '../../web/src/features/kanban/lane-order';
import { mayComment, mayEditViews } from '../../web/src/features/views/view-roles';
import { coverOf } from '../../web/src/features/views/cover';
import { toSort, toWhere } from '../../web/src/features/grid/query-builder';

test('builder filters go to the where language and come back the same', () => {
  const rows = [
    { column: 'Name', op: 'like', value: 'rock' },
    { column: 'Milliseconds', op: 'gt', value: '300000' },
    { column: 'Composer', op: 'blank', value: '' },
  ];
  const where = toWhere(rows);
  expect(where).toBe('(Name,like,%rock%)~and(Milliseconds,gt,300000)~and(Composer,blank)');
  expect(parseWhere(where)).toEqual(rows);
  expect(parseWhere('')).toEqual([]);
});

test('a where the builder cannot show stays raw (null)', () => {
  expect(parseWhere('(a,eq,1)~or(b,eq,2)')).toBeNull();
  expect(parseWhere('((a,eq,1))')).toBeNull();
  expect(parseWhere('(a,in,1,2)')).toBeNull();
  expect(parseWhere('(a,like,rock)')).toBeNull(); // a like without its % is not the builder's 'contains'
  expect(parseWhere('(a,blank,x)')).toBeNull();
});

test('sorts both ways', () => {
  const sorts = parseSort('-Milliseconds,Name');
  expect(sorts).toEqual([{ column: 'Milliseconds', desc: true }, { column: 'Name', desc: false }]);
  expect(toSort(sorts)).toBe('-Milliseconds,Name');
  expect(parseSort(undefined)).toEqual([]);
});

test("fields are laid out in the view's order; gone columns drop out, new ones come last and shown", () => {
  const laid = layoutFields(['Id', 'Name', 'Size', 'New'], [
    { cn: 'Size', show: true, width: 240 },
    { cn: 'Gone', show: true },
    { cn: 'Id', show: false },
    { cn: 'Name', show: true, width: 5000 },
  ]);
  expect(laid).toEqual([
    { name: 'Size', show: true, width: 240 },
    { name: 'Id', show: false, width: 180 },
    { name: 'Name', show: true, width: 800 },
    { name: 'New', show: true, width: 180 },
  ]);
  expect(toViewFields(laid)).toEqual([{ cn: 'Size', show: true, width: 240 }, { cn: 'Id', show: false }, { cn: 'Name', show: true, width: 800 }, { cn: 'New', show: true }]);
  expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
});

test("a view stored by SQL names is shown by API names (where, sort, fields, columns, form)", () => {
  const cols = [{ cn: 'track_id', _cn: 'TrackId' }, { cn: 'name', _cn: 'Name' }, { cn: 'stage', _cn: 'Stage' }, { cn: 'released_on', _cn: 'ReleasedOn' }];
  const q = aliasQueryParams(
    { where: '((name,like,%a,b%)~or(track_id,gt,3))~and(stage,blank)', sort: '-track_id,name', fields: [{ cn: 'name', show: false }], groupBy: 'stage', dateColumn: 'released_on', form: { heading: 'h', subheading: '', submitMessage: '', fields: [{ cn: 'name', label: 'Title' }] }, rowHeight: 'tall' },
    cols,
  );
  expect(q.where).toBe('((Name,like,%a,b%)~or(TrackId,gt,3))~and(Stage,blank)');
  expect(q.sort).toBe('-TrackId,Name');
  expect(q.fields).toEqual([{ cn: 'Name', show: false }]);
  expect([q.groupBy, q.dateColumn, q.rowHeight]).toEqual(['Stage', 'ReleasedOn', 'tall']);
  expect(q.form!.fields).toEqual([{ cn: 'Name', label: 'Title' }]);
  // A form without its own field list keeps none (the server shows every fillable column).
  expect(aliasQueryParams({ form: { heading: 'h', subheading: '', submitMessage: '' } as never }, cols).form!.fields).toBeUndefined();
  expect(mapWhereColumns('(a,eq,x)~not(b,eq,(c,d))', (c) => c.toUpperCase())).toBe('(A,eq,x)~not(B,eq,(c,d))');
});

test('a grid state from a view and back: filters, sort, order, hidden, widths, row height, grouping', () => {
  const columns = ['Id', 'Name', 'Size'];
  const state = gridStateOf({ where: '(Size,gt,10)', sort: '-Size', fields: [{ cn: 'Size', show: true, width: 300 }, { cn: 'Name', show: false }], rowHeight: 'medium', groupBy: 'Name' }, columns);
  expect(state.builder!.filters).toEqual([{ column: 'Size', op: 'gt', value: '10' }]);
  expect(state.builder!.raw).toBeNull();
  expect(state.order).toEqual(['Size', 'Name', 'Id']);
  expect(state.hidden).toEqual(['Name']);
  expect(state.widths!.Size).toBe(300);
  const back = queryParamsOf({ where: state.where!, sort: state.sort!, hidden: state.hidden!, widths: state.widths!, builder: state.builder!, order: state.order, rowHeight: 'medium', groupBy: 'Name' }, columns);
  expect(back).toEqual({ where: '(Size,gt,10)', sort: '-Size', fields: [{ cn: 'Size', show: true, width: 300 }, { cn: 'Name', show: false }, { cn: 'Id', show: true }], rowHeight: 'medium', groupBy: 'Name' });
  expect(gridStateOf({ where: '(a,eq,1)~or(b,eq,2)' }, columns).builder!.raw).toBe('(a,eq,1)~or(b,eq,2)');
});

test('card fields: the view\'s choice, else the first columns that are not keys', () => {
  expect(cardFields(['Id', 'A', 'B', 'C'], undefined, 2, ['Id']).map((f) => [f.name, f.show])).toEqual([['Id', false], ['A', true], ['B', true], ['C', false]]);
  expect(cardFields(['Id', 'A'], [{ cn: 'Id', show: true }, { cn: 'A', show: false }], 2, ['Id']).map((f) => f.show)).toEqual([true, false]);
});

test('lanes: a value, the empty lane, everything else; the saved lane order with new lanes after', () => {
  expect(valueWhere('Stage', 'Demo')).toBe('(Stage,eq,Demo)');
  expect(valueWhere('Stage', null)).toBe('(Stage,blank)');
  // A JSON value (a group of a JSON column) is written as its JSON text, not as [object Object].
  expect(valueWhere('Data', { a: 1, b: [2] })).toBe('(Data,eq,{"a":1,"b":[2]})');
  expect(otherWhere('Stage', ['Demo', 'Live'])).toBe('(Stage,blank)~or(Stage,nin,Demo,Live)');
  expect(andWhere('(a,eq,1)', otherWhere('Stage', ['Demo']))).toBe('(a,eq,1)~and((Stage,blank)~or(Stage,nin,Demo))');
  expect(andWhere('', '(a,eq,1)')).toBe('(a,eq,1)');
  expect(laneOrder(['Demo', 'Mixing', 'Live'], ['Live', '', 'Gone'])).toEqual(['Live', '', 'Demo', 'Mixing']);
  expect(laneOrder(['Demo'], undefined)).toEqual(['', 'Demo']);
});

test('owners, creators, editors and the Super Admin change views; a previewed role decides while previewing', () => {
  expect(mayEditViews({ editor: true }, null)).toBe(true);
  expect(mayEditViews({ viewer: true }, null)).toBe(false);
  expect(mayEditViews({ super: true }, null)).toBe(true);
  expect(mayEditViews({ owner: true }, 'viewer')).toBe(false);
  expect(mayEditViews({ owner: true }, 'editor')).toBe(true);
});

test('commenters and above add comments, viewers and guests do not; a previewed role decides while previewing', () => {
  expect(mayComment({ commenter: true }, null)).toBe(true);
  expect(mayComment({ editor: true }, null)).toBe(true);
  expect(mayComment({ viewer: true }, null)).toBe(false);
  expect(mayComment({ super: true }, null)).toBe(true);
  expect(mayComment({ owner: true }, 'viewer')).toBe(false);
  expect(mayComment({ owner: true }, 'commenter')).toBe(true);
});

test('a cover is the first image of an attachment, never a script address', () => {
  expect(coverOf([{ url: 'https://x.test/a.pdf' }, { url: 'https://x.test/b.png' }])).toBe('https://x.test/b.png');
  expect(coverOf(JSON.stringify([{ path: '/download/c.jpg', mimetype: 'image/jpeg' }]))).toBe('/download/c.jpg');
  expect(coverOf([{ url: 'javascript:alert(1)', mimetype: 'image/png' }])).toBeNull();
  expect(coverOf([{ url: 'data:text/html;base64,PHNjcmlwdD4=', mimetype: 'image/png' }])).toBeNull();
  expect(coverOf('not json')).toBeNull();
  // A file uploaded to this server is named by its id (its short-lived link is asked for); a shared row's carries its link.
  expect(coverOf([{ id: 'f1', title: 'notes.pdf', mimetype: 'application/pdf', path: 'k/notes.pdf' }, { id: 'f2', title: 'cat.png', mimetype: 'image/png', path: 'k/cat.png' }])).toEqual({ fileId: 'f2' });
  expect(coverOf([{ id: 'f3', title: 'dog.JPG', path: 'k/dog.JPG' }])).toEqual({ fileId: 'f3' });
  expect(coverOf([{ id: 'f2', title: 'cat.png', mimetype: 'image/png', signedUrl: '/api/files/f2?exp=1&sig=x' }])).toEqual({ fileId: 'f2', src: '/api/files/f2?exp=1&sig=x' });
});

test("a view's layout columns (lane, cover, dates) are not card fields and are always saved shown", () => {
  const { menu, save } = cardMenu(cardFields(['Id', 'Title', 'Cover', 'Stage'], [{ cn: 'Cover', show: false }, { cn: 'Title', show: true }]), ['Cover', undefined, 'Stage']);
  expect(menu.map((f) => f.name)).toEqual(['Title', 'Id']);
  expect(save(menu)).toEqual([{ cn: 'Title', show: true }, { cn: 'Id', show: true }, { cn: 'Cover', show: true }, { cn: 'Stage', show: true }]);
});
