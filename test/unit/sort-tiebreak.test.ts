/** The key appended to a sort follows the direction of the last sort key, so an index can be walked backwards. */
import { describe, expect, test } from 'bun:test';
import { parseSort } from '../../src/data/list-query';
import { dialectFor } from '../../src/sql/engines';
import type { Engine } from '../../src/sql/dialect';
import type { ColumnModel, TableModel } from '../../src/schema/model';

const column = (cn: string, kind: ColumnModel['kind'], extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn, _cn: cn, dt: kind, uidt: 'SingleLineText', kind, pk: false, ai: false, nullable: true, default: null, ...extra,
});
const ORDERS: TableModel = {
  tn: 'orders', _tn: 'Orders', type: 'table', pks: ['id'], displayColumn: 'status', relations: [],
  columns: [column('id', 'integer', { pk: true }), column('status', 'string'), column('created_at', 'datetime')],
};
const orderBy = (engine: Engine, sort: string | undefined, t: TableModel = ORDERS) => {
  const { sql } = dialectFor(engine).compile({ kind: 'select', from: { name: t.tn }, columns: [], orderBy: parseSort(t, sort) });
  return sql.slice(sql.indexOf('ORDER BY'));
};

describe('sort tiebreak direction', () => {
  test('descending last key: the primary key descends too, on every engine', () => {
    expect(orderBy('sqlite', '-created_at')).toBe('ORDER BY "created_at" DESC, "id" DESC');
    expect(orderBy('pg', '-created_at')).toBe('ORDER BY "created_at" DESC, "id" DESC');
    expect(orderBy('mysql', '-created_at')).toBe('ORDER BY `created_at` DESC, `id` DESC');
    expect(orderBy('mssql', '-created_at')).toBe('ORDER BY [created_at] DESC, [id] DESC');
  });
  test('ascending last key: the primary key ascends', () => {
    expect(orderBy('pg', 'status')).toBe('ORDER BY "status", "id"');
    expect(orderBy('pg', '-status,created_at')).toBe('ORDER BY "status" DESC, "created_at", "id"');
    expect(orderBy('pg', 'status,-created_at')).toBe('ORDER BY "status", "created_at" DESC, "id" DESC');
  });
  test('no sort: primary key ascending; a sort on the key itself adds nothing', () => {
    expect(orderBy('pg', undefined)).toBe('ORDER BY "id"');
    expect(orderBy('pg', '-id')).toBe('ORDER BY "id" DESC');
  });
  test('a keyless table breaks ties on every column in the last key’s direction', () => {
    const keyless: TableModel = { ...ORDERS, tn: 'log', pks: [] };
    expect(orderBy('pg', '-created_at', keyless)).toBe('ORDER BY "created_at" DESC, "id" DESC, "status" DESC');
  });
});
