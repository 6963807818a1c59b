/**
 * What a form offers when the role may set only some columns on a new row: the settable columns,
 * those left out (named in a note, in the reader's language), and the blocking ones a new row needs.
 */
import { expect, test } from 'bun:test';
import type { ColumnMeta } from '../../web/src/api/dashboard';
import { createRights, createRightsNote } from '../../web/src/features/form/create-rights';

const col = (cn: string, extra: Partial<ColumnMeta> = {}): ColumnMeta => ({ cn, _cn: cn, uidt: 'SingleLineText', kind: 'string', dt: 'text', pk: false, ai: false, nullable: true, enumValues: null, hidden: false, ...extra });
const cols = [col('Id', { pk: true, ai: true, nullable: false }), col('Name', { nullable: false }), col('Phone'), col('Status', { nullable: false, default: "'new'" })];

test('every column is settable without a column rule (or from a server that does not say)', () => {
  for (const meta of [{}, { canCreateColumns: ['Id', 'Name', 'Phone', 'Status'] }]) {
    const r = createRights(meta, cols);
    expect(r.settable.map((c) => c.cn)).toEqual(['Id', 'Name', 'Phone', 'Status']);
    expect(r.left).toEqual([]);
    expect(createRightsNote(r)).toBeNull();
  }
});

test('columns the role may not set are left out and named; those with a default or nullable do not block', () => {
  const r = createRights({ canCreateColumns: ['Name'] }, cols);
  expect(r.settable.map((c) => c.cn)).toEqual(['Name']);
  // The generated key is never asked for, so it is not named either.
  expect(r.left.map((c) => c.cn)).toEqual(['Phone', 'Status']);
  expect(r.blocking).toEqual([]);
  expect(createRightsNote(r)).toBe('Your role may not set Phone and Status when adding a row: they are left out, and the database fills them in.');
  expect(createRightsNote(createRights({ canCreateColumns: ['Name', 'Status'] }, cols))).toBe('Your role may not set Phone when adding a row: it is left out, and the database fills it in.');
});

test('a column a new row needs, which the role may not set, blocks adding rows and says so', () => {
  const r = createRights({ canCreateColumns: ['Phone'] }, cols);
  expect(r.blocking.map((c) => c.cn)).toEqual(['Name']);
  expect(createRightsNote(r)).toBe('Your role may not set Name, which a new row needs, so rows cannot be added here.');
});
