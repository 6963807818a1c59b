/**
 * Form views: the default form of a table, fields in the form's order (gone columns left out),
 * labels, required fields checked, the row a submission makes (only filled-in form fields), a row
 * that answers nothing, and which redirect addresses are followed.
 */
import { expect, test } from 'bun:test';
import type { ColumnMeta } from '../../web/src/api/dashboard';
import { DEFAULT_SUBMIT_MESSAGE, formFields, formSpecOf, labelOf, missingRequired, nothingFilled, rowOf, safeRedirect } from '../../web/src/features/form/form-spec';
import { kindProblem } from '../../web/src/features/views/view-kinds';
import { choicesIn } from '../../web/src/features/grid/field-input';

const col = (cn: string, extra: Partial<ColumnMeta> = {}): ColumnMeta => ({ cn, _cn: cn, uidt: 'SingleLineText', kind: 'string', dt: 'text', pk: false, ai: false, nullable: true, enumValues: null, hidden: false, ...extra });
const cols = [col('Id', { pk: true, ai: true, uidt: 'ID', kind: 'integer', nullable: false }), col('Name', { nullable: false }), col('Plays', { uidt: 'Number', kind: 'integer' }), col('Live', { uidt: 'Checkbox', kind: 'boolean' })];

test('the default form asks for every column but generated keys; columns needing a value are required', () => {
  const spec = formSpecOf(undefined, cols, 'Tracks');
  expect(spec.heading).toBe('Tracks');
  expect(spec.submitMessage).toBe(DEFAULT_SUBMIT_MESSAGE);
  expect(spec.fields).toEqual([{ cn: 'Name', required: true }, { cn: 'Plays', required: false }, { cn: 'Live', required: false }]);
  // A saved form without its own field list gets the same fields.
  expect(formSpecOf({ heading: 'H', subheading: '', submitMessage: 'ok' } as never, cols, 'x').fields.map((f) => f.cn)).toEqual(['Name', 'Plays', 'Live']);
});

test("fields follow the form's order and labels; gone columns are left out", () => {
  const spec = formSpecOf({ heading: 'H', subheading: '', submitMessage: '', fields: [{ cn: 'Plays', label: 'How often' }, { cn: 'Gone' }, { cn: 'Name' }] }, cols, 'x');
  const f = formFields(spec, cols);
  expect(f.map((x) => x.column.cn)).toEqual(['Plays', 'Name']);
  expect(labelOf(f[0]!.field, f[0]!.column)).toBe('How often');
  expect(labelOf(f[1]!.field, f[1]!.column)).toBe('Name');
});

test('required fields left empty are named; the row holds only filled-in form fields, typed', () => {
  const spec = formSpecOf({ heading: '', subheading: '', submitMessage: '', fields: [{ cn: 'Name', required: true, label: 'Title' }, { cn: 'Plays' }, { cn: 'Live' }] }, cols, 'x');
  expect(missingRequired(spec, cols, { Name: '  ' })).toEqual({ Name: 'Title is required' });
  expect(missingRequired(spec, cols, { Name: 'Song' })).toEqual({});
  expect(rowOf(spec, cols, { Name: 'Song', Plays: '12', Live: 'true', Id: '99' })).toEqual({ Name: 'Song', Plays: '12', Live: true }) // numbers go as typed: the server reads them as the column's type;
  expect(rowOf(spec, cols, { Name: 'Song', Plays: '' })).toEqual({ Name: 'Song' });
});

test('a row answers nothing when every value is blank text, no files or an unticked checkbox', () => {
  expect(nothingFilled({})).toBe(true);
  expect(nothingFilled({ Name: '  ', Live: false, Cover: [] })).toBe(true);
  expect(nothingFilled({ Name: '  ', Live: true })).toBe(false);
  expect(nothingFilled({ Plays: '0' })).toBe(false);
  expect(nothingFilled({ Cover: [{ title: 'a.png' }] })).toBe(false);
});

test('only http(s) redirect addresses are followed', () => {
  expect(safeRedirect('https://example.com/thanks')).toBe('https://example.com/thanks');
  expect(safeRedirect('javascript:alert(1)')).toBeNull();
  expect(safeRedirect('/relative')).toBeNull();
  expect(safeRedirect('')).toBeNull();
});

test('a form needs a table rows can be added to; a multi select text reads as its choices', () => {
  expect(kindProblem('form', [], true, true)).toBeNull();
  expect(kindProblem('form', [], false, true)).toBe('A form adds rows, so it needs a table (not a SQL view).');
  expect(kindProblem('form', [], true, false)).toBe('A form adds rows, so it needs a table with a primary key: this one has none.');
  expect(kindProblem('grid', [], true, false)).toBeNull();
  expect(choicesIn('Calm,Dark')).toEqual(['Calm', 'Dark']);
  expect(choicesIn(' a b , c ,')).toEqual(['a b', 'c']);
  expect(choicesIn('')).toEqual([]);
});
