/**
 * The same AST queries run on real SQLite, PostgreSQL and MariaDB over the awkward schema and
 * answer the same rows: case-insensitive LIKE, NULLS FIRST/LAST, pagination, joins with grouping,
 * many-to-many through a sub-select, per-parent row numbers, functions, and writes with
 * RETURNING where the engine has it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../../src/sql/open-database';
import type { Database } from '../../src/sql/dialect';
import type { Expr, Query, Select } from '../../src/sql/ast';
import { and, col, eq, val } from '../../src/sql/ast';
import { describeEngines, dropDatabase, loadAwkward } from '../helpers/engines';

const order = { name: 'order' };
const titles = (rows: Record<string, unknown>[]) => rows.map((r) => r.title);

describeEngines('queries answer the same rows everywhere', (engine) => {
  const name = `tablo_t_sqlqueries_${engine}`;
  let db: Database;
  const run = (q: Query) => db.driver.query<Record<string, unknown>>(db.dialect.compile(q));
  const select = (s: Partial<Select>): Select => ({ kind: 'select', from: order, columns: [{ expr: col('title') }], ...s });

  beforeAll(async () => {
    db = await openDatabase(await loadAwkward(engine, name));
  });
  afterAll(async () => {
    await db.driver.close();
    await dropDatabase(engine, name);
  });

  test('case-insensitive LIKE and unicode values', async () => {
    expect(titles(await run(select({ where: { kind: 'like', left: col('title'), pattern: val('%IRS%') } })))).toEqual(['First']);
    expect(titles(await run(select({ where: { kind: 'like', left: col('notes'), pattern: val('%ünïcödé ✓') } })))).toEqual(['First']);
    expect(titles(await run(select({ where: { kind: 'like', left: col('notes'), pattern: val('NÉE — ÜNÏCÖDÉ%') } })))).toEqual(['First']);
    const up = await run({ kind: 'select', from: { name: 'Customer Group' }, columns: [{ expr: { kind: 'fn', name: 'upper', args: [col('Group Name')] }, as: 'u' }, { expr: { kind: 'fn', name: 'lower', args: [col('Group Name')] }, as: 'l' }], where: eq(col('GroupId'), val(2)) });
    expect(up).toEqual([{ u: 'GROßHANDEL', l: 'großhandel' }]);
    const notLike = await run(select({ where: { kind: 'like', not: true, left: col('title'), pattern: val('f%') }, orderBy: [{ expr: col('id') }] }));
    expect(titles(notLike)).toEqual(['Second', 'Third "quoted"']);
  });

  test('NULLS FIRST / LAST in both directions', async () => {
    expect(titles(await run(select({ orderBy: [{ expr: col('due'), nulls: 'first' }] })))).toEqual(['Third "quoted"', 'First', 'Second']);
    expect(titles(await run(select({ orderBy: [{ expr: col('due'), desc: true, nulls: 'last' }] })))).toEqual(['Second', 'First', 'Third "quoted"']);
    expect(titles(await run(select({ orderBy: [{ expr: col('due'), desc: true, nulls: 'first' }] })))).toEqual(['Third "quoted"', 'Second', 'First']);
  });

  test('limit and offset', async () => {
    expect(titles(await run(select({ orderBy: [{ expr: col('id') }], limit: 1, offset: 1 })))).toEqual(['Second']);
    expect(titles(await run(select({ orderBy: [{ expr: col('id') }], offset: 2 })))).toEqual(['Third "quoted"']);
    expect(await run(select({ orderBy: [{ expr: col('id') }], limit: 0 }))).toEqual([]);
  });

  test('join, group by, having, EXISTS', async () => {
    const count: Expr = { kind: 'fn', name: 'count', args: [{ kind: 'star' }] };
    const rows = await run({
      kind: 'select',
      from: { name: 'order', alias: 'o' },
      columns: [{ expr: col('Group Name', 'g'), as: 'group' }, { expr: count, as: 'n' }, { expr: { kind: 'fn', name: 'sum', args: [col('qty', 'o')] }, as: 'qty' }],
      joins: [{ type: 'left', table: { name: 'Customer Group', alias: 'g' }, on: eq(col('group', 'o'), col('GroupId', 'g')) }],
      where: { kind: 'exists', query: { kind: 'select', from: { name: 'order_tag', alias: 'ot' }, columns: [{ expr: { kind: 'dangerousRaw', sql: '1' } }], where: eq(col('order_id', 'ot'), col('id', 'o')) } },
      groupBy: [col('Group Name', 'g')],
      having: { kind: 'cmp', op: '>', left: count, right: val(0) },
      orderBy: [{ expr: col('Group Name', 'g'), nulls: 'last' }],
      limit: 10,
    });
    expect(rows.map((r) => [r.group, Number(r.n), Number(r.qty)])).toEqual([['Großhandel', 1, 1], ['Retail', 1, 2]]);
  });

  test('many-to-many through the junction, per-parent row numbers', async () => {
    const tags = await run({
      kind: 'select',
      from: { name: 'tag' },
      columns: [{ expr: col('label') }],
      where: { kind: 'inSelect', left: [col('id')], query: { kind: 'select', from: { name: 'order_tag' }, columns: [{ expr: col('tag_id') }], where: eq(col('order_id'), val(1)) } },
      orderBy: [{ expr: col('id') }],
    });
    expect(tags.map((r) => r.label)).toEqual(['urgent', 'gift']);
    const numbered = await run({
      kind: 'select',
      from: { name: 'order_tag' },
      columns: [{ expr: col('order_id') }, { expr: col('tag_id') }, { expr: { kind: 'rowNumber', partitionBy: [col('order_id')], orderBy: [{ expr: col('tag_id') }] }, as: 'rn' }],
      orderBy: [{ expr: col('order_id') }, { expr: col('tag_id') }],
    });
    expect(numbered.map((r) => [Number(r.order_id), Number(r.tag_id), Number(r.rn)])).toEqual([[1, 1, 1], [1, 2, 2], [2, 3, 1]]);
  });

  test('functions, CASE, division and NULL-safe concat give the same values', async () => {
    const rows = await run({
      kind: 'select',
      from: order,
      columns: [
        { expr: { kind: 'fn', name: 'upper', args: [col('title')] }, as: 'up' },
        { expr: { kind: 'fn', name: 'length', args: [col('title')] }, as: 'len' },
        { expr: { kind: 'fn', name: 'ceil', args: [{ kind: 'binary', op: '/', left: col('qty'), right: val(2) }] }, as: 'half' },
        { expr: { kind: 'binary', op: '/', left: col('qty'), right: val(2) }, as: 'ratio' },
        { expr: { kind: 'binary', op: '%', left: col('qty'), right: val(2) }, as: 'odd' },
        { expr: { kind: 'binary', op: '||', left: col('title'), right: col('notes') }, as: 'joined' },
        { expr: { kind: 'case', whens: [{ when: { kind: 'cmp', op: '>', left: col('qty'), right: val(1) }, then: val('many') }], else: val('one') }, as: 'size' },
        { expr: { kind: 'fn', name: 'coalesce', args: [col('code'), val('-')] }, as: 'code' },
      ],
      orderBy: [{ expr: col('id') }],
    });
    expect(rows.map((r) => [r.up, Number(r.len), Number(r.half), Number(r.ratio), Number(r.odd), r.joined, r.size, r.code])).toEqual([
      ['FIRST', 5, 1, 1, 0, 'Firstnée — ünïcödé ✓', 'many', 'A1'],
      ['SECOND', 6, 1, 0.5, 1, 'Second', 'one', 'B2'],
      ['THIRD "QUOTED"', 14, 3, 2.5, 1, 'Third "quoted"', 'many', '-'],
    ]);
  });

  test('dates, times, 64-bit integers and decimals come back as the same text', async () => {
    const rows = await db.driver.query<Record<string, unknown>>({
      ...db.dialect.compile(select({ columns: ['due', 'created_at', 'at_time', 'big', 'price'].map((c) => ({ expr: col(c) })), where: eq(col('title'), val('First')) })),
      exact: true,
    });
    expect(rows.map((r) => [r.due, r.created_at, r.at_time, String(r.big), Number(r.price)])).toEqual([
      ['2024-01-31', '2024-01-31 10:20:30', '10:20:30', '9007199254740993', 10.5],
    ]);
  });

  test('booleans filter the same way', async () => {
    expect(titles(await run(select({ where: { kind: 'truthy', expr: col('paid') }, orderBy: [{ expr: col('id') }] })))).toEqual(['First', 'Third "quoted"']);
    expect(titles(await run(select({ where: eq(col('paid'), val(false)) })))).toEqual(['Second']);
  });

  test('insert (RETURNING where the engine has it), update and delete', async () => {
    const insert: Query = { kind: 'insert', table: { name: 'tag' }, columns: ['id', 'label'], rows: [[val(10), val('neu')], [val(11), val('ñ')]], returning: ['id', 'label'] };
    const returned = await run(insert);
    if (db.dialect.caps.insertReturning) expect(returned.map((r) => [Number(r.id), r.label])).toEqual([[10, 'neu'], [11, 'ñ']]);
    else expect(returned).toEqual([]);
    const upd = await db.driver.execute(db.dialect.compile({ kind: 'update', table: { name: 'tag' }, set: [{ column: 'label', value: val('new') }], where: eq(col('id'), val(10)) }));
    expect(upd.affected).toBe(1);
    const del = await db.driver.execute(
      db.dialect.compile({ kind: 'delete', table: { name: 'tag' }, where: { kind: 'in', left: col('id'), values: [val(10), val(11)] } }),
    );
    expect(del.affected).toBe(2);
    const grade = await run({ kind: 'select', from: { name: 'grade' }, columns: [{ expr: col('score') }], where: and(eq(col('student'), val('ann')), eq(col('course'), val('art'))) });
    expect(grade.map((r) => Number(r.score))).toEqual([70]);
  });
});
