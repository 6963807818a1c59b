/**
 * The schema forms' pure logic: SQL names proposed for display names, select choices, length and
 * precision checks, what the add/edit column form sends (a ColumnInput, only the changed fields,
 * a virtual column), the display order after an insert, the formula suggestions, the migrations'
 * run order, and table renames followed by their tabs.
 */
import { expect, test } from 'bun:test';
import { dtxpProblem, parseChoices, sqlNameFor, sqlNameProblem } from '../../web/src/features/schema/column-types';
import { columnChanges, columnInput, draftOf, draftProblem, newDraft, orderWith, virtualInput, withName, withType } from '../../web/src/features/schema/column-draft';
import { applySuggestion, suggest, wordAt } from '../../web/src/features/schema/formula-suggest';
import { columnsProblem, DEFAULT_COLUMNS } from '../../web/src/features/schema/column-types';
import { runOrder } from '../../web/src/features/audit/migration-order';
import { activeKey, closeTableTab, openTab, renameTabs, resetTabs, tabs } from '../../web/src/stores/tabs';
import type { ColumnMeta, TableMeta } from '../../web/src/api/dashboard';
import type { Migration } from '../../web/src/api/schema';

const col = (cn: string, over: Partial<ColumnMeta> = {}): ColumnMeta => ({ cn, _cn: cn, uidt: 'SingleLineText', kind: 'string', dt: 'varchar', pk: false, ai: false, nullable: true, enumValues: null, hidden: false, ...over });
const meta: TableMeta = {
  tn: 'orders', _tn: 'Orders', type: 'table', pks: ['id'], displayColumn: 'title', readOnly: null,
  columns: [col('id', { pk: true, ai: true, uidt: 'Number', nullable: false }), col('title'), col('amount', { uidt: 'Decimal', length: null })],
  relations: [], virtuals: [{ _cn: 'Total', uidt: 'Formula', formula: { text: '{amount} * 2' } }],
};

test('SQL names proposed for display names', () => {
  expect(sqlNameFor('Unit Price (€)')).toBe('unit_price');
  expect(sqlNameFor('Café au lait')).toBe('cafe_au_lait');
  expect(sqlNameFor('2nd phone')).toBe('c_2nd_phone');
  expect(sqlNameFor('x'.repeat(80)).length).toBe(63);
  expect(sqlNameProblem('', 'SQL name')).toBe('SQL name is required');
  expect(sqlNameProblem('y'.repeat(64))).toContain('longer than 63');
  expect(sqlNameProblem('ok')).toBeNull();
});

test('choices, length and precision', () => {
  expect(parseChoices('red\n green , blue\n\nred')).toEqual(['red', 'green', 'blue']);
  expect(dtxpProblem('length', '255')).toBeNull();
  expect(dtxpProblem('length', '-1')).toBe('Length must be a positive whole number');
  expect(dtxpProblem('precision', '10, 2')).toBeNull();
  expect(dtxpProblem('precision', '2,10')).toBe('The scale cannot exceed the precision');
  expect(dtxpProblem('precision', 'ten')).toBe('Precision must read like 10,2');
});

test('a new column: the SQL name follows the name until edited; the type proposes its size', () => {
  let d = withName(newDraft(), 'Customer Email');
  expect(d.cn).toBe('customer_email');
  d = { ...d, cn: 'email', cnTouched: true };
  expect(withName(d, 'Mail').cn).toBe('email');
  d = withType(d, 'Decimal');
  expect(d.dtxp).toBe('10,2');
  d = withType({ ...d, dtxp: '8,3' }, 'Currency');
  expect(d.dtxp).toBe('8,3');
  expect(withType(d, 'Checkbox').dtxp).toBe('');
  const choices = [{ title: 'open', color: '#ff0000' }, { title: ' closed ', color: '#00ff00' }, { title: '', color: '#000000' }];
  const input = columnInput({ ...withType(withName(newDraft(), 'Status'), 'SingleSelect'), choices, nullable: false, default: 'open' });
  expect(input).toEqual({
    cn: 'status', _cn: 'Status', uidt: 'SingleSelect', nullable: false, unique: false, options: ['open', 'closed'], default: 'open',
    meta: { options: [{ title: 'open', color: '#ff0000' }, { title: 'closed', color: '#00ff00' }] },
  });
});

test('the form refuses what cannot be saved, with a message', () => {
  expect(draftProblem(newDraft(), meta, null)).toBe('Column name is required');
  expect(draftProblem(withName(newDraft(), 'TITLE'), meta, null)).toBe("A column named 'TITLE' already exists");
  expect(draftProblem(withName(newDraft(), 'total'), meta, null)).toBe("A column named 'total' already exists");
  expect(draftProblem(withName(newDraft(), 'title'), meta, 'title')).toBeNull();
  expect(draftProblem({ ...withName(newDraft(), 'Tags'), uidt: 'MultiSelect' }, meta, null)).toBe('Add at least one option');
  expect(draftProblem({ ...withName(newDraft(), 'Calc'), uidt: 'Formula' }, meta, null)).toBe('Formula is required');
  expect(draftProblem({ ...newDraft(), uidt: 'Links' }, meta, null)).toBe('Pick the table to link to');
  expect(draftProblem({ ...withName(newDraft(), 'Sum'), uidt: 'Rollup', relation: 'items' }, meta, null)).toBe('Pick a relation and a column');
});

test('an edit sends only the fields that changed', () => {
  const before = draftOf(col('title', { length: 255 }));
  expect(columnChanges(before, before)).toEqual({});
  expect(columnChanges(before, { ...before, name: 'Title' })).toEqual({ _cn: 'Title' });
  expect(columnChanges(before, { ...before, nullable: false, unique: true })).toEqual({ nullable: false, unique: true });
  expect(columnChanges(before, withType(before, 'Number'))).toEqual({ uidt: 'Number' });
  expect(columnChanges(before, { ...before, default: '' , dtxp: '100' })).toEqual({ dtxp: '100' });
});

test('a DateTime column set to the time of each change: switched on and off in the column form', () => {
  const plain = draftOf(col('seen_at', { uidt: 'DateTime', kind: 'datetime', meta: { touch: false } }));
  expect(plain.meta.touch).toBe(false);
  expect(columnChanges(plain, { ...plain, meta: { ...plain.meta, touch: true } })).toEqual({ meta: { touch: true } });
  const touched = draftOf(col('updated_at', { uidt: 'DateTime', kind: 'datetime', meta: { touch: true } }));
  expect(columnChanges(touched, touched)).toEqual({});
  // Switching it off is said (the server keeps the options an edit leaves out).
  expect(columnChanges(touched, { ...touched, meta: { ...touched.meta, touch: false } })).toEqual({ meta: { touch: false } });
  expect(columnInput({ ...withName(newDraft(), 'Changed'), uidt: 'DateTime', meta: { ...newDraft().meta, touch: true } }).meta).toEqual({ touch: true });
  expect(columnInput(withType(touched, 'Date')).meta).toBeUndefined();
});

test('virtual columns and the display order after an insert', () => {
  expect(virtualInput({ ...withName(newDraft(), 'Double'), uidt: 'Formula', formula: '{amount} * 2' })).toEqual({ _cn: 'Double', uidt: 'Formula', formula: '{amount} * 2' });
  expect(virtualInput({ ...withName(newDraft(), 'Lines'), uidt: 'Rollup', relation: 'items', column: 'qty', fn: 'sum' })).toEqual({ _cn: 'Lines', uidt: 'Rollup', rollup: { relation: 'items', column: 'qty', fn: 'sum' } });
  expect(virtualInput({ ...withName(newDraft(), 'Who'), uidt: 'Lookup', relation: 'customer', column: 'name' })).toEqual({ _cn: 'Who', uidt: 'Lookup', lookup: { relation: 'customer', column: 'name' } });
  expect(orderWith(meta, 'note', 1)).toEqual(['id', 'note', 'title', 'amount']);
  expect(orderWith(meta, 'note', 3)).toEqual(['id', 'title', 'amount', 'note']);
});

test('create table: the default columns and the checks of an edited list', () => {
  expect(DEFAULT_COLUMNS.map((c) => c.cn)).toEqual(['id', 'title', 'created_at', 'updated_at']);
  expect(DEFAULT_COLUMNS.find((c) => c.cn === 'updated_at')!.meta).toEqual({ touch: true });
  expect(columnsProblem([])).toBe('A table needs at least one column');
  expect(columnsProblem([{ cn: 'a', uidt: 'Number' }, { cn: 'A', uidt: 'Date' }])).toBe("The column name 'a' is used twice");
  expect(columnsProblem([{ cn: '', uidt: 'Number' }])).toBe('Column name is required');
  expect(columnsProblem(DEFAULT_COLUMNS)).toBeNull();
});

const fns = [
  { name: 'CONCAT', syntax: 'CONCAT(a, b, ...)', description: 'joins texts', example: "CONCAT({a}, ' ', {b})" },
  { name: 'CEILING', syntax: 'CEILING(n)', description: 'rounds up', example: 'CEILING(1.2)' },
  { name: 'ROUND', syntax: 'ROUND(n, digits)', description: 'rounds', example: 'ROUND(1.25, 1)' },
];

test('formula suggestions: functions by prefix, columns inside braces', () => {
  expect(wordAt('1 + CE', 6)).toEqual({ start: 4, word: 'CE', inBraces: false });
  expect(wordAt('CONCAT({Fir', 11)).toEqual({ start: 7, word: 'Fir', inBraces: true });
  expect(suggest('c', 1, fns, ['city'], 8).map((s) => s.label)).toEqual(['CONCAT', 'CEILING', 'city']);
  expect(suggest('ROUND({', 7, fns, ['First Name', 'Last Name'], 8).map((s) => s.insert)).toEqual(['{First Name}', '{Last Name}']);
  expect(suggest('1 + ', 4, fns, ['a'], 8)).toEqual([]);
  const [concat] = suggest('co', 2, fns, [], 8);
  expect(applySuggestion('co', 2, concat!)).toEqual({ text: 'CONCAT(', cursor: 7 });
  const [last] = suggest('UPPER({La})', 9, fns, ['Last Name'], 8);
  expect(applySuggestion('UPPER({La})', 9, last!)).toEqual({ text: 'UPPER({Last Name})', cursor: 17 });
});

test('Apply all runs pending migrations oldest first; Roll back all applied ones newest first', () => {
  const m = (id: number, status: Migration['status']): Migration => ({ id, title: `m${id}`, up: [], down: [], status, createdAt: '', appliedAt: null });
  const newestFirst = [m(4, 'pending'), m(3, 'failed'), m(2, 'applied'), m(1, 'applied')];
  expect(runOrder(newestFirst, 'apply').map((x) => x.id)).toEqual([3, 4]);
  expect(runOrder(newestFirst, 'rollback').map((x) => x.id)).toEqual([2, 1]);
});

test('a renamed table keeps its tab under the new name; a deleted one loses it', () => {
  resetTabs();
  openTab({ type: 'table', name: 'Orders', dbAlias: 'db', title: 'Orders' });
  renameTabs('db', 'Orders', 'Sales');
  expect(tabs.value.map((t) => t.title)).toEqual(['Sales']);
  expect(activeKey.value).toBe('table:db:Sales');
  closeTableTab('db', 'Sales');
  expect(tabs.value).toEqual([]);
});
