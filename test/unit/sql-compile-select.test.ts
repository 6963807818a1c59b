/**
 * Exact SQL per engine for joins, grouping, sub-selects, CASE, arithmetic and function spellings
 * (SQL Server included: these compile tests are its coverage here).
 */
import { describe, expect, test } from 'bun:test';
import { dialectFor } from '../../src/sql/engines';
import type { Engine } from '../../src/sql/dialect';
import type { Expr, Query } from '../../src/sql/ast';
import { col, eq, val } from '../../src/sql/ast';

const compileAll = (q: Query) =>
  Object.fromEntries((['sqlite', 'pg', 'mysql', 'mssql'] as Engine[]).map((e) => [e, dialectFor(e).compile(q)]));
const count: Expr = { kind: 'fn', name: 'count', args: [{ kind: 'star' }] };

describe('select', () => {
  test('left join, EXISTS, group by, having, NULLS LAST, limit', () => {
    const q: Query = {
      kind: 'select',
      from: { name: 'order', alias: 'o' },
      columns: [{ expr: col('Group Name', 'g'), as: 'group' }, { expr: count, as: 'n' }, { expr: { kind: 'fn', name: 'sum', args: [col('qty', 'o')] }, as: 'qty' }],
      joins: [{ type: 'left', table: { name: 'Customer Group', alias: 'g' }, on: eq(col('group', 'o'), col('GroupId', 'g')) }],
      where: { kind: 'exists', query: { kind: 'select', from: { name: 'order_tag', alias: 'ot' }, columns: [{ expr: { kind: 'dangerousRaw', sql: '1' } }], where: eq(col('order_id', 'ot'), col('id', 'o')) } },
      groupBy: [col('Group Name', 'g')],
      having: { kind: 'cmp', op: '>', left: count, right: val(0) },
      orderBy: [{ expr: col('Group Name', 'g'), nulls: 'last' }],
      limit: 10,
    };
    const body = (qt: (s: string) => string, p: (n: number) => string) =>
      `SELECT ${qt('g')}.${qt('Group Name')} AS ${qt('group')}, COUNT(*) AS ${qt('n')}, SUM(${qt('o')}.${qt('qty')}) AS ${qt('qty')} FROM ${qt('order')} AS ${qt('o')} LEFT JOIN ${qt('Customer Group')} AS ${qt('g')} ON ${qt('o')}.${qt('group')} = ${qt('g')}.${qt('GroupId')} WHERE EXISTS (SELECT 1 FROM ${qt('order_tag')} AS ${qt('ot')} WHERE ${qt('ot')}.${qt('order_id')} = ${qt('o')}.${qt('id')}) GROUP BY ${qt('g')}.${qt('Group Name')} HAVING COUNT(*) > ${p(1)}`;
    const dq = (s: string) => `"${s}"`;
    const bt = (s: string) => `\`${s}\``;
    const br = (s: string) => `[${s}]`;
    expect(compileAll(q)).toEqual({
      sqlite: { sql: `${body(dq, () => '?')} ORDER BY "g"."Group Name" NULLS LAST LIMIT ?`, params: [0, 10] },
      pg: { sql: `${body(dq, (n) => `$${n}`)} ORDER BY "g"."Group Name" NULLS LAST LIMIT $2`, params: [0, 10] },
      mysql: { sql: `${body(bt, () => '?')} ORDER BY (\`g\`.\`Group Name\` IS NULL) ASC, \`g\`.\`Group Name\` LIMIT ?`, params: [0, '10'] },
      mssql: {
        sql: `${body(br, (n) => `@p${n}`)} ORDER BY CASE WHEN [g].[Group Name] IS NULL THEN 1 ELSE 0 END, [g].[Group Name] OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY`,
        params: [0, 0, 10],
      },
    });
  });

  test('DISTINCT over a sub-select; function spellings, CASE, true division, NULL-safe concat, scalar sub-select', () => {
    const q: Query = {
      kind: 'select',
      distinct: true,
      from: { kind: 'subselect', alias: 's', query: { kind: 'select', from: { name: 'order' }, columns: [{ expr: col('title') }, { expr: col('qty') }] } },
      columns: [
        { expr: { kind: 'fn', name: 'length', args: [col('title')] }, as: 'len' },
        { expr: { kind: 'fn', name: 'ceil', args: [{ kind: 'binary', op: '/', left: col('qty'), right: val(2) }] }, as: 'half' },
        { expr: { kind: 'binary', op: '%', left: col('qty'), right: val(2) }, as: 'odd' },
        { expr: { kind: 'binary', op: '||', left: col('title'), right: val('!') }, as: 'shout' },
        { expr: { kind: 'case', whens: [{ when: { kind: 'cmp', op: '>', left: col('qty'), right: val(1) }, then: val('many') }], else: val('one') }, as: 'size' },
        { expr: { kind: 'subquery', query: { kind: 'select', from: { name: 'tag' }, columns: [{ expr: count }] } }, as: 'tags' },
      ],
    };
    const params = [2, 2, '!', 1, 'many', 'one'];
    expect(compileAll(q)).toEqual({
      sqlite: {
        sql: `SELECT DISTINCT LENGTH("title") AS "len", CEIL(("qty" * 1.0 / ?)) AS "half", ("qty" % ?) AS "odd", (COALESCE("title", '') || COALESCE(?, '')) AS "shout", CASE WHEN "qty" > ? THEN ? ELSE ? END AS "size", (SELECT COUNT(*) FROM "tag") AS "tags" FROM (SELECT "title", "qty" FROM "order") AS "s"`,
        params,
      },
      pg: {
        sql: `SELECT DISTINCT LENGTH("title") AS "len", CEIL(("qty" * 1.0 / $1)) AS "half", MOD(CAST("qty" AS numeric), CAST($2 AS numeric)) AS "odd", CONCAT("title", $3) AS "shout", CASE WHEN "qty" > $4 THEN $5 ELSE $6 END AS "size", (SELECT COUNT(*) FROM "tag") AS "tags" FROM (SELECT "title", "qty" FROM "order") AS "s"`,
        params,
      },
      mysql: {
        sql: "SELECT DISTINCT LENGTH(`title`) AS `len`, CEIL((`qty` * 1.0 / ?)) AS `half`, MOD(`qty`, ?) AS `odd`, CONCAT_WS('', `title`, ?) AS `shout`, CASE WHEN `qty` > ? THEN ? ELSE ? END AS `size`, (SELECT COUNT(*) FROM `tag`) AS `tags` FROM (SELECT `title`, `qty` FROM `order`) AS `s`",
        params,
      },
      mssql: {
        sql: 'SELECT DISTINCT LEN([title]) AS [len], CEILING(([qty] * 1.0 / @p1)) AS [half], ([qty] % @p2) AS [odd], CONCAT([title], @p3) AS [shout], CASE WHEN [qty] > @p4 THEN @p5 ELSE @p6 END AS [size], (SELECT COUNT(*) FROM [tag]) AS [tags] FROM (SELECT [title], [qty] FROM [order]) AS [s]',
        params,
      },
    });
  });

  test('IN (sub-select) over a composite key and NOT EXISTS', () => {
    const q: Query = {
      kind: 'select',
      from: { name: 'grade' },
      columns: [],
      where: {
        kind: 'and',
        items: [
          { kind: 'inSelect', left: [col('student'), col('course')], query: { kind: 'select', from: { name: 'pick' }, columns: [{ expr: col('s') }, { expr: col('c') }] } },
          { kind: 'exists', not: true, query: { kind: 'select', from: { name: 'ban' }, columns: [], where: eq(col('who', 'ban'), val('eve')) } },
        ],
      },
    };
    expect(dialectFor('pg').compile(q)).toEqual({
      sql: 'SELECT * FROM "grade" WHERE (("student", "course") IN (SELECT "s", "c" FROM "pick") AND NOT EXISTS (SELECT * FROM "ban" WHERE "ban"."who" = $1))',
      params: ['eve'],
    });
    expect(dialectFor('mysql').compile(q).sql).toBe(
      'SELECT * FROM `grade` WHERE ((`student`, `course`) IN (SELECT `s`, `c` FROM `pick`) AND NOT EXISTS (SELECT * FROM `ban` WHERE `ban`.`who` = ?))',
    );
  });

  test('offset without a limit', () => {
    const q: Query = { kind: 'select', from: { name: 't' }, columns: [], orderBy: [{ expr: col('id') }], offset: 5 };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'SELECT * FROM "t" ORDER BY "id" LIMIT -1 OFFSET ?', params: [5] },
      pg: { sql: 'SELECT * FROM "t" ORDER BY "id" OFFSET $1', params: [5] },
      mysql: { sql: 'SELECT * FROM `t` ORDER BY `id` LIMIT 18446744073709551615 OFFSET ?', params: ['5'] },
      mssql: { sql: 'SELECT * FROM [t] ORDER BY [id] OFFSET @p1 ROWS', params: [5] },
    });
  });

  test('a limit that is only a cap: still bound; on SQLite as an expression, so the statement is not prepared again per value', () => {
    const q: Query = { kind: 'select', from: { name: 't' }, columns: [], where: eq(col('a'), val(1)), orderBy: [{ expr: col('id') }], limit: 50, limitIsCap: true };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'SELECT * FROM "t" WHERE "a" = ? ORDER BY "id" LIMIT ? + 0', params: [1, 50] },
      pg: { sql: 'SELECT * FROM "t" WHERE "a" = $1 ORDER BY "id" LIMIT $2', params: [1, 50] },
      mysql: { sql: 'SELECT * FROM `t` WHERE `a` = ? ORDER BY `id` LIMIT ?', params: [1, '50'] },
      mssql: { sql: 'SELECT * FROM [t] WHERE [a] = @p1 ORDER BY [id] OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY', params: [1, 0, 50] },
    });
    expect(dialectFor('sqlite').compile({ ...q, offset: 5 } as Query).sql).toEndWith('LIMIT ? OFFSET ?');
  });

  test('an empty page: LIMIT 0, and TOP (0) on SQL Server where FETCH NEXT 0 ROWS is an error', () => {
    const q: Query = { kind: 'select', distinct: true, from: { name: 't' }, columns: [{ expr: col('a') }], orderBy: [{ expr: col('a') }], limit: 0, offset: 20 };
    expect(dialectFor('mssql').compile(q)).toEqual({ sql: 'SELECT DISTINCT TOP (0) [a] FROM [t]', params: [] });
    expect(dialectFor('pg').compile(q)).toEqual({ sql: 'SELECT DISTINCT "a" FROM "t" ORDER BY "a" LIMIT $1 OFFSET $2', params: [0, 20] });
    const distinctPage: Query = { kind: 'select', distinct: true, from: { name: 't' }, columns: [{ expr: col('a') }], limit: 5 };
    expect(dialectFor('mssql').compile(distinctPage)).toEqual({ sql: 'SELECT DISTINCT [a] FROM [t] ORDER BY 1 OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY', params: [0, 5] });
  });

  test('bound values never reach the text; a raw fragment binds its own parameters', () => {
    const q: Query = {
      kind: 'select',
      from: { name: 't' },
      columns: [{ expr: { kind: 'dangerousRaw', sql: 'COALESCE(?, ?)', params: ["x'); DROP TABLE t; --", null] }, as: 'v' }],
      where: eq(col('name'), val("' OR 1=1 --")),
    };
    const c = dialectFor('sqlite').compile(q);
    expect(c).toEqual({ sql: 'SELECT COALESCE(?, ?) AS "v" FROM "t" WHERE "name" = ?', params: ["x'); DROP TABLE t; --", null, "' OR 1=1 --"] });
    expect(dialectFor('mssql').compile(q).sql).toBe('SELECT COALESCE(@p1, @p2) AS [v] FROM [t] WHERE [name] = @p3');
  });
});

describe('like', () => {
  test('case-insensitive on every engine, a backslash as its escape everywhere', () => {
    const q: Query = { kind: 'select', from: { name: 't' }, columns: [{ expr: col('a') }], where: { kind: 'like', left: col('a'), pattern: val('%50\\%%') } };
    const out = compileAll(q);
    expect(out.sqlite!.sql).toBe(`SELECT "a" FROM "t" WHERE tablo_lower("a") LIKE tablo_lower(?) ESCAPE '\\'`);
    // PostgreSQL's ILIKE and MySQL's LIKE take a backslash as their escape by default.
    expect(out.pg!.sql).toBe(`SELECT "a" FROM "t" WHERE "a"::text ILIKE $1`);
    expect(out.mysql!.sql).toBe('SELECT `a` FROM `t` WHERE LOWER(`a`) LIKE LOWER(?)');
    expect(out.mssql!.sql).toBe(`SELECT [a] FROM [t] WHERE LOWER([a]) LIKE LOWER(@p1) ESCAPE '\\'`);
    for (const e of ['sqlite', 'pg', 'mysql', 'mssql']) expect(out[e]!.params).toEqual(['%50\\%%']);
  });
});
