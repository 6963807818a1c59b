/** Grid cell editors by column type: which input edits a value, and what typed text is sent to the API. */
import { expect, test } from 'bun:test';
import type { ColumnMeta } from '../../web/src/api/dashboard';
import { edited, editorFor, editorStart, incompleteInput, numericMode, parseInput } from '../../web/src/features/grid/grid-cell';

const col = (kind: string, nullable = true): ColumnMeta => ({ cn: 'c', _cn: 'C', uidt: 'X', kind, dt: 'x', pk: false, ai: false, nullable, enumValues: null, hidden: false });

test('a date-time without zone is edited in a datetime-local input and sent back in the API form', () => {
  expect(editorFor(col('datetime'), '2009-01-01 00:00:00')).toEqual({ type: 'datetime-local', text: '2009-01-01T00:00:00' });
  expect(parseInput(col('datetime'), '2009-01-02T13:45')).toBe('2009-01-02 13:45:00');
  expect(parseInput(col('datetime'), '2009-01-02T13:45:07')).toBe('2009-01-02 13:45:07');
  expect(editorFor(col('datetime'), null)).toEqual({ type: 'datetime-local', text: '' });
});

test('a date-time with a zone stays text so the zone is kept', () => {
  expect(editorFor(col('datetime'), '2009-01-01 00:00:00+02')).toEqual({ type: 'text', text: '2009-01-01 00:00:00+02' });
  expect(parseInput(col('datetime'), '2009-01-01 00:00:00+02')).toBe('2009-01-01 00:00:00+02');
});

test('numbers are typed in text inputs, dates and times get theirs; decimals and big integers stay exact text', () => {
  // Numbers are text inputs: a number input reads '7e' as '' and the cell would be emptied without a word.
  expect(editorFor(col('integer'), 12)).toEqual({ type: 'text', text: '12' });
  expect(editorFor(col('float'), 1.5)).toEqual({ type: 'text', text: '1.5' });
  expect(parseInput(col('integer'), '7e')).toBe('7e');
  expect(numericMode(col('integer'))).toBe('numeric');
  expect(numericMode(col('float'))).toBe('decimal');
  expect(editorFor(col('date'), '2009-01-01').type).toBe('date');
  expect(editorFor(col('time'), '10:00:00').type).toBe('time');
  expect(editorFor(col('time'), '10:00:00.125').type).toBe('time');
  // A time input would show these as empty (and Enter would save NULL): they are edited as text.
  expect(editorFor(col('time'), '10:00:00.123456')).toEqual({ type: 'text', text: '10:00:00.123456' });
  expect(editorFor(col('time'), '100:00:00').type).toBe('text');
  expect(editorFor(col('time'), '10:30:00+02').type).toBe('text');
  expect(editorFor(col('decimal'), '0.99')).toEqual({ type: 'text', text: '0.99' });
  expect(parseInput(col('decimal'), '12345678901234567.10')).toBe('12345678901234567.10');
  expect(parseInput(col('bigint'), '9007199254740993')).toBe('9007199254740993');
});

test('empty text is NULL only for nullable columns', () => {
  expect(parseInput(col('string'), '')).toBeNull();
  expect(parseInput(col('string', false), '')).toBe('');
});

test('JSON is edited and sent as its text, so a JSON string keeps its quotes and stays a string', () => {
  expect(editorFor(col('json'), { a: [1, 2] })).toEqual({ type: 'text', text: '{"a":[1,2]}' });
  expect(editorFor(col('json'), 'abc').text).toBe('"abc"');
  expect(editorFor(col('json'), '123').text).toBe('"123"');
  expect(editorFor(col('json'), 5).text).toBe('5');
  expect(editorFor(col('json'), null).text).toBe('');
  // The API takes a string for a JSON column as JSON text.
  expect(parseInput(col('json'), '"abc"')).toBe('"abc"');
  expect(parseInput(col('json'), '"123"')).toBe('"123"');
  expect(parseInput(col('json'), '{"a":[1,2]}')).toBe('{"a":[1,2]}');
  expect(parseInput(col('json'), '{broken')).toBe('{broken');
});

test('a native input holding text it cannot read (a date segment left empty) is incomplete, not empty', () => {
  expect(incompleteInput({ validity: { badInput: true } } as unknown as Element)).toBe(true);
  expect(incompleteInput({ validity: { badInput: false } } as unknown as Element)).toBe(false);
  expect(incompleteInput(null)).toBe(false);
});

test('typing on a selected cell: text editors start from the character, a choice list from the first choice it starts; date and time inputs give way to text', () => {
  expect(editorStart(col('string'), 'old', 'h')).toEqual({ type: 'text', text: 'h' });
  expect(editorStart(col('integer'), 7, '4')).toEqual({ type: 'text', text: '4' });
  const select = { ...col('string'), enumValues: ['todo', 'done'] };
  expect(editorStart(select, 'todo', 'D').text).toBe('done');
  expect(editorStart(select, 'todo', 'x').text).toBe('todo');
  // A native time or date-time input would drop the keystroke ('1130' became 13:00): text, checked by the server.
  expect(editorStart(col('time'), '10:00:00', '1')).toEqual({ type: 'text', text: '1' });
  expect(editorStart(col('datetime'), '2024-01-01 10:00:00', '2')).toEqual({ type: 'text', text: '2' });
  // A date too: its field's segments read '2024-03-05' typed as a month, a day and a year in turn (0005-02-02).
  expect(editorStart(col('date'), '2024-01-01', '1')).toEqual({ type: 'text', text: '1' });
  expect(parseInput(col('date'), '2024-03-05')).toBe('2024-03-05');
  expect(editorStart(col('time'), '10:00:00', undefined)).toEqual({ type: 'time', text: '10:00:00' });
});

test('Enter on an editor left as it opened writes nothing (a duration of 90 s shows 0:02 under h:mm and would be saved as 120 s)', () => {
  const duration = { ...col('decimal'), uidt: 'Duration' };
  const start = editorFor(duration, 90).text;
  expect(start).toBe('0:02');
  expect(edited(start, '0:02', undefined)).toBe(false);
  expect(edited(start, '0:03', undefined)).toBe(true);
  // Opened by a keystroke, the typed text is written even when it looks the same.
  expect(edited('4', '4', '4')).toBe(true);
});
