/**
 * The pieces of saved views that need no database: where texts rewritten by column and ANDed as
 * groups (also one that starts with ~not), the shown columns of a view, query_params following
 * renamed and dropped columns, and the address of a shared link.
 */
import { describe, expect, test } from 'bun:test';
import { parseWhere } from '../../src/data/where-parser';
import { andWhere, mapWhereColumns, whereColumns } from '../../common/where-columns';
import { shownColumns } from '../../src/data/view-query';
import { renameInQueryParams } from '../../src/api/views/view-schema-events';
import { sharedLinkUrl } from '../../src/api/dashboard/ops/shared-views';
import { dialectFor } from '../../src/sql/engines';
import type { ColumnModel, TableModel } from '../../src/schema/model';
import type { AppContext } from '../../src/context';
import type { ViewQueryParams } from '../../src/meta/views-repo';

const column = (cn: string, kind: ColumnModel['kind'] = 'string'): ColumnModel => ({
  cn, _cn: cn.charAt(0).toUpperCase() + cn.slice(1), dt: kind, uidt: 'SingleLineText', kind, pk: cn === 'id', ai: false, nullable: true, default: null,
});
const T: TableModel = { tn: 'film', _tn: 'Film', type: 'table', pks: ['id'], displayColumn: 'title', relations: [], columns: [column('id', 'integer'), column('title'), column('rating', 'decimal'), column('kind')] };
const sql = (w: string) => dialectFor('pg').compile({ kind: 'select', from: { name: 'film' }, columns: [], where: parseWhere(w, T)! }).sql.replace('SELECT * FROM "film" WHERE ', '');

describe('where texts', () => {
  test('columns are renamed term by term, values and groups untouched', () => {
    const w = '((Title,like,a,b)~or(rating,gt,3))~and~not(Kind,eq,(x))';
    expect(mapWhereColumns(w, (c) => c.toLowerCase() + '_x')).toBe('((title_x,like,a,b)~or(rating_x,gt,3))~and~not(kind_x,eq,(x))');
    expect(whereColumns(w)).toEqual(['Title', 'rating', 'Kind']);
    expect(mapWhereColumns('~not(title,eq,1)', () => 'T')).toBe('~not(T,eq,1)');
  });
  test('andWhere groups each side so its OR stays inside, also a side that starts with ~not', () => {
    expect(andWhere(undefined, '  ')).toBeUndefined();
    expect(andWhere('(id,eq,1)', undefined)).toBe('(id,eq,1)');
    const both = andWhere('(id,eq,1)~or(id,eq,2)', '(title,eq,x)')!;
    expect(sql(both)).toBe('(("id" = $1 OR "id" = $2) AND "title" = $3)');
    expect(sql(andWhere('~not(id,eq,1)', '(title,eq,x)~or(title,eq,y)')!)).toBe('(NOT ("id" = $1) AND ("title" = $2 OR "title" = $3))');
    expect(mapWhereColumns(andWhere('~not(id,eq,1)', '(title,eq,x)')!, (c) => c.toUpperCase())).toBe('(~not(ID,eq,1))~and((TITLE,eq,x))');
  });
});

describe('shown columns', () => {
  const names = (type: 'grid' | 'form', query_params: ViewQueryParams) => shownColumns(T, { title: 'v', type, query_params }).map((c) => c.cn);
  test('listed shown ones in order, then the ones the view does not list; hidden and lost ones left out', () => {
    expect(names('grid', {})).toEqual(['id', 'title', 'rating', 'kind']);
    expect(names('grid', { fields: [{ cn: 'rating', show: true }, { cn: 'gone', show: true }, { cn: 'id', show: false }, { cn: 'Title', show: true }] })).toEqual(['rating', 'title', 'kind']);
  });
  test('a form shows its form fields, less the hidden ones', () => {
    expect(names('form', { form: { fields: [{ cn: 'kind' }, { cn: 'title' }, { cn: 'rating' }] }, fields: [{ cn: 'rating', show: false }] })).toEqual(['kind', 'title']);
    expect(names('form', { form: { heading: 'x' } })).toEqual(['id', 'title', 'rating', 'kind']);
    const auto: TableModel = { ...T, columns: T.columns.map((c) => (c.cn === 'id' ? { ...c, ai: true } : c)) };
    expect(shownColumns(auto, { title: 'f', type: 'form', query_params: { fields: [{ cn: 'kind', show: true }] } }).map((c) => c.cn)).toEqual(['kind', 'title', 'rating']);
  });
  test('a gallery, kanban or calendar that never chose its fields shows what its cards show, not every column', () => {
    // Cards show the first 4 (gallery), 5 (kanban) or 3 (calendar) columns that are not keys; a link
    // to such a view once answered every column of the table.
    const wide: TableModel = { ...T, displayColumn: 'g', columns: [column('id', 'integer'), ...'abcdefgh'.split('').map((n) => column(n)), { ...column('secret'), hidden: true }, column('due', 'datetime'), column('stage')] };
    const cards = (type: 'gallery' | 'kanban' | 'calendar', query_params: ViewQueryParams) => shownColumns(wide, { title: 'v', type, query_params }).map((c) => c.cn);
    // The display column (g) titles each card; lane, cover and dates lay the cards out.
    expect(cards('gallery', {})).toEqual(['id', 'a', 'b', 'c', 'd', 'g']);
    expect(cards('kanban', { groupBy: 'Stage' })).toEqual(['id', 'a', 'b', 'c', 'd', 'e', 'g', 'stage']);
    expect(cards('calendar', { dateColumn: 'due' })).toEqual(['id', 'a', 'b', 'c', 'g', 'due']);
    // Once the view chooses its fields, they decide as for a grid.
    expect(cards('gallery', { fields: [{ cn: 'h', show: true }, { cn: 'a', show: false }] })).toEqual(['h', 'id', 'b', 'c', 'd', 'e', 'f', 'g', 'secret', 'due', 'stage']);
  });
});

describe('query_params follow schema changes', () => {
  const qp = { where: '(due,isnot,null)', sort: '-due,title', fields: [{ cn: 'due', show: true }, { cn: 'title', show: false }], dateColumn: 'due', groupBy: 'title', form: { heading: 'h', fields: [{ cn: 'due', required: true }] }, lanes: ['a'] };
  test('a renamed column is renamed everywhere', () => {
    expect(renameInQueryParams(qp, 'due', 'due_on')).toEqual({ ...qp, where: '(due_on,isnot,null)', sort: '-due_on,title', fields: [{ cn: 'due_on', show: true }, { cn: 'title', show: false }], dateColumn: 'due_on', form: { heading: 'h', fields: [{ cn: 'due_on', required: true }] } });
  });
  test('a dropped column leaves fields, sort, kind settings and the form; the where is kept', () => {
    expect(renameInQueryParams(qp, 'due', null)).toEqual({ where: '(due,isnot,null)', sort: 'title', fields: [{ cn: 'title', show: false }], groupBy: 'title', form: { heading: 'h', fields: [] }, lanes: ['a'] });
    expect(renameInQueryParams({ sort: 'due' }, 'due', null)).toEqual({});
  });
});

describe('shared link addresses', () => {
  const call = (publicUrl?: string) => ({ ctx: { config: { publicUrl, trustedProxies: [] } } as unknown as AppContext, request: new Request('http://127.0.0.1:8080/dashboard?q=x') });
  test('NC_PUBLIC_URL when set, else the origin of the request', () => {
    expect(sharedLinkUrl(call('https://tablo.example.com/'), 'u-1')).toBe('https://tablo.example.com/#/nc/view/u-1');
    expect(sharedLinkUrl(call(), 'u-1')).toBe('http://127.0.0.1:8080/#/nc/view/u-1');
  });
});
