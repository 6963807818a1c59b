/**
 * The exact SQL and parameters each engine compiles for the same queries (SQL Server included:
 * no server runs here, so these tests are its coverage).
 */
import { describe, expect, test } from 'bun:test';
import { dialectFor } from '../../src/sql/engines';
import { mysqlVersionCaps } from '../../src/sql/mysql/driver';
import type { Engine } from '../../src/sql/dialect';
import type { Query } from '../../src/sql/ast';
import { col, val } from '../../src/sql/ast';

const compileAll = (q: Query) =>
  Object.fromEntries((['sqlite', 'pg', 'mysql', 'mssql'] as Engine[]).map((e) => [e, dialectFor(e).compile(q)]));

describe('select', () => {
  test('filter, sort, pagination', () => {
    const q: Query = {
      kind: 'select',
      from: { name: 'track' },
      columns: [{ expr: col('id') }, { expr: col('name'), as: 'Name' }],
      where: {
        kind: 'or',
        items: [
          { kind: 'cmp', op: '>', left: col('price'), right: val(1) },
          { kind: 'and', items: [{ kind: 'like', left: col('name'), pattern: val('%love%') }, { kind: 'isNull', not: true, expr: col('composer') }] },
        ],
      },
      orderBy: [{ expr: col('name'), desc: true }, { expr: col('id') }],
      limit: 25,
      offset: 50,
    };
    expect(compileAll(q)).toEqual({
      sqlite: {
        sql: 'SELECT "id", "name" AS "Name" FROM "track" WHERE ("price" > ? OR (tablo_lower("name") LIKE tablo_lower(?) ESCAPE \'\\\' AND "composer" IS NOT NULL)) ORDER BY "name" DESC, "id" LIMIT ? OFFSET ?',
        params: [1, '%love%', 25, 50],
      },
      pg: {
        sql: 'SELECT "id", "name" AS "Name" FROM "track" WHERE ("price" > $1 OR ("name"::text ILIKE $2 AND "composer" IS NOT NULL)) ORDER BY "name" DESC, "id" LIMIT $3 OFFSET $4',
        params: [1, '%love%', 25, 50],
      },
      mysql: {
        sql: 'SELECT `id`, `name` AS `Name` FROM `track` WHERE (`price` > ? OR (LOWER(`name`) LIKE LOWER(?) AND `composer` IS NOT NULL)) ORDER BY `name` DESC, `id` LIMIT ? OFFSET ?',
        params: [1, '%love%', '25', '50'],
      },
      mssql: {
        sql: 'SELECT [id], [name] AS [Name] FROM [track] WHERE ([price] > @p1 OR (LOWER([name]) LIKE LOWER(@p2) ESCAPE \'\\\' AND [composer] IS NOT NULL)) ORDER BY [name] DESC, [id] OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: [1, '%love%', 50, 25],
      },
    });
  });

  test('SQL Server needs an ORDER BY to paginate', () => {
    expect(dialectFor('mssql').compile({ kind: 'select', from: { name: 't' }, columns: [], limit: 10 })).toEqual({
      sql: 'SELECT * FROM [t] ORDER BY (SELECT NULL) OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
      params: [0, 10],
    });
  });

  test('in, between, booleans, nulls ordering, per-parent row numbers', () => {
    const q: Query = {
      kind: 'select',
      from: { name: 'track', schema: 'music' },
      columns: [{ expr: { kind: 'rowNumber', partitionBy: [col('album_id')], orderBy: [{ expr: col('id') }] }, as: '__rn' }],
      where: {
        kind: 'and',
        items: [
          { kind: 'in', left: col('album_id'), values: [val(1), val(2)] },
          { kind: 'between', not: true, expr: col('ms'), low: val(10), high: val(20) },
          { kind: 'cmp', op: '=', left: col('active'), right: val(true) },
        ],
      },
      orderBy: [{ expr: col('composer'), nulls: 'last' }],
    };
    const out = compileAll(q);
    expect(out.pg).toEqual({
      sql: 'SELECT ROW_NUMBER() OVER (PARTITION BY "album_id" ORDER BY "id") AS "__rn" FROM "music"."track" WHERE ("album_id" IN ($1, $2) AND "ms" NOT BETWEEN $3 AND $4 AND "active" = $5) ORDER BY "composer" NULLS LAST',
      params: [1, 2, 10, 20, true],
    });
    expect(out.mysql).toEqual({
      sql: 'SELECT ROW_NUMBER() OVER (PARTITION BY `album_id` ORDER BY `id`) AS `__rn` FROM `music`.`track` WHERE (`album_id` IN (?, ?) AND `ms` NOT BETWEEN ? AND ? AND `active` = ?) ORDER BY (`composer` IS NULL) ASC, `composer`',
      params: [1, 2, 10, 20, 1],
    });
    expect(out.sqlite!.params).toEqual([1, 2, 10, 20, 1]);
    expect(out.mssql!.sql).toEndWith('ORDER BY CASE WHEN [composer] IS NULL THEN 1 ELSE 0 END, [composer]');
    expect(out.mssql!.params).toEqual([1, 2, 10, 20, 1]);
  });

  test('an empty IN list matches nothing instead of failing', () => {
    const q: Query = { kind: 'select', from: { name: 't' }, columns: [], where: { kind: 'in', left: col('a'), values: [] } };
    expect(dialectFor('pg').compile(q).sql).toBe('SELECT * FROM "t" WHERE 1 = 0');
  });

  test('hostile identifiers are quoted, never spliced', () => {
    const q: Query = { kind: 'select', from: { name: 'we"ird`ta]ble' }, columns: [{ expr: col('x"; DROP TABLE t; --') }] };
    const out = compileAll(q);
    expect(out.pg!.sql).toBe('SELECT "x""; DROP TABLE t; --" FROM "we""ird`ta]ble"');
    expect(out.mysql!.sql).toBe('SELECT `x"; DROP TABLE t; --` FROM `we"ird``ta]ble`');
    expect(out.mssql!.sql).toBe('SELECT [x"; DROP TABLE t; --] FROM [we"ird`ta]]ble]');
  });
});

describe('writes', () => {
  test('insert with returning (MySQL / MariaDB: asked for only where the server has it, see caps.insertReturning)', () => {
    const q: Query = { kind: 'insert', table: { name: 'artist' }, columns: ['name', 'active'], rows: [[val('AC/DC'), val(true)]], returning: ['id'] };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'INSERT INTO "artist" ("name", "active") VALUES (?, ?) RETURNING "id"', params: ['AC/DC', 1] },
      pg: { sql: 'INSERT INTO "artist" ("name", "active") VALUES ($1, $2) RETURNING "id"', params: ['AC/DC', true] },
      mysql: { sql: 'INSERT INTO `artist` (`name`, `active`) VALUES (?, ?) RETURNING `id`', params: ['AC/DC', 1] },
      mssql: { sql: 'INSERT INTO [artist] ([name], [active]) OUTPUT INSERTED.[id] VALUES (@p1, @p2)', params: ['AC/DC', 1] },
    });
  });

  test('multi-row insert and default values', () => {
    const q: Query = { kind: 'insert', table: { name: 'g' }, columns: ['a'], rows: [[val(1)], [val(2)]] };
    expect(dialectFor('pg').compile(q)).toEqual({ sql: 'INSERT INTO "g" ("a") VALUES ($1), ($2)', params: [1, 2] });
    expect(dialectFor('mysql').compile({ kind: 'insert', table: { name: 'g' }, columns: [], rows: [] }).sql).toBe('INSERT INTO `g` () VALUES ()');
    expect(dialectFor('sqlite').compile({ kind: 'insert', table: { name: 'g' }, columns: [], rows: [] }).sql).toBe('INSERT INTO "g" DEFAULT VALUES');
  });

  test('update by composite key', () => {
    const q: Query = {
      kind: 'update',
      table: { name: 'playlist_track' },
      set: [{ column: 'note', value: val('x') }],
      where: { kind: 'and', items: [{ kind: 'cmp', op: '=', left: col('playlist_id'), right: val(1) }, { kind: 'cmp', op: '=', left: col('track_id'), right: val(2) }] },
      returning: ['playlist_id', 'track_id'],
    };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'UPDATE "playlist_track" SET "note" = ? WHERE ("playlist_id" = ? AND "track_id" = ?) RETURNING "playlist_id", "track_id"', params: ['x', 1, 2] },
      pg: { sql: 'UPDATE "playlist_track" SET "note" = $1 WHERE ("playlist_id" = $2 AND "track_id" = $3) RETURNING "playlist_id", "track_id"', params: ['x', 1, 2] },
      mysql: { sql: 'UPDATE `playlist_track` SET `note` = ? WHERE (`playlist_id` = ? AND `track_id` = ?)', params: ['x', 1, 2] },
      mssql: { sql: 'UPDATE [playlist_track] SET [note] = @p1 OUTPUT INSERTED.[playlist_id], INSERTED.[track_id] WHERE ([playlist_id] = @p2 AND [track_id] = @p3)', params: ['x', 1, 2] },
    });
  });

  test('update answering the row before in the same statement (PostgreSQL, SQL Server)', () => {
    const q: Query = {
      kind: 'update',
      table: { name: 'order', schema: 'shop' },
      set: [{ column: 'note', value: val('x') }],
      where: { kind: 'cmp', op: '=', left: col('id'), right: val(7) },
      returning: ['id', 'note'],
      old: { columns: ['note'], keys: ['id'] },
    };
    expect(dialectFor('pg').compile(q)).toEqual({
      sql: 'UPDATE "shop"."order" AS "__new" SET "note" = $1 FROM (SELECT "note", "id" FROM "shop"."order" WHERE "id" = $2 FOR UPDATE) AS "__old" WHERE "__new"."id" = "__old"."id" RETURNING "__new"."id", "__new"."note", "__old"."note" AS "__old_0"',
      params: ['x', 7],
    });
    expect(dialectFor('mssql').compile(q)).toEqual({
      sql: 'UPDATE [shop].[order] SET [note] = @p1 OUTPUT INSERTED.[id], INSERTED.[note], DELETED.[note] AS [__old_0] WHERE [id] = @p2',
      params: ['x', 7],
    });
    expect(dialectFor('pg').caps.updateReturningOld).toBe(true);
    expect(dialectFor('mssql').caps.updateReturningOld).toBe(true);
    // The others read the row before first: asking them for it is a bug, not SQL.
    for (const e of ['sqlite', 'mysql'] as Engine[]) {
      expect(dialectFor(e).caps.updateReturningOld).toBeFalsy();
      expect(() => dialectFor(e).compile(q)).toThrow('answers no row before an update');
    }
  });

  test('delete', () => {
    const q: Query = { kind: 'delete', table: { name: 'order' }, where: { kind: 'cmp', op: '=', left: col('id'), right: val(7) } };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'DELETE FROM "order" WHERE "id" = ?', params: [7] },
      pg: { sql: 'DELETE FROM "order" WHERE "id" = $1', params: [7] },
      mysql: { sql: 'DELETE FROM `order` WHERE `id` = ?', params: [7] },
      mssql: { sql: 'DELETE FROM [order] WHERE [id] = @p1', params: [7] },
    });
  });

  test('delete returning the deleted row', () => {
    const q: Query = { kind: 'delete', table: { name: 'order' }, where: { kind: 'cmp', op: '=', left: col('id'), right: val(7) }, returning: ['id', 'note'] };
    expect(compileAll(q)).toEqual({
      sqlite: { sql: 'DELETE FROM "order" WHERE "id" = ? RETURNING "id", "note"', params: [7] },
      pg: { sql: 'DELETE FROM "order" WHERE "id" = $1 RETURNING "id", "note"', params: [7] },
      mysql: { sql: 'DELETE FROM `order` WHERE `id` = ? RETURNING `id`, `note`', params: [7] },
      mssql: { sql: 'DELETE FROM [order] OUTPUT DELETED.[id], DELETED.[note] WHERE [id] = @p1', params: [7] },
    });
  });
});

describe('capabilities are data', () => {
  test('returning and transactional DDL per engine', () => {
    expect(dialectFor('mysql').caps).toMatchObject({ returning: false, transactionalDdl: false });
    expect(dialectFor('pg').caps).toMatchObject({ returning: true, transactionalDdl: true, schemas: true });
    expect(dialectFor('sqlite').caps).toMatchObject({ returning: true, alterColumn: false, functions: false });
    expect(dialectFor('mssql').caps).toMatchObject({ returning: true, schemas: true, maxParams: 2_100 });
    expect(dialectFor('mysql').caps).toMatchObject({ insertReturning: false, deleteReturning: false });
    expect(dialectFor('pg').caps).toMatchObject({ insertReturning: true, deleteReturning: true });
  });

  test('MariaDB adds INSERT ... RETURNING from 10.5 and DELETE ... RETURNING from 10.0.5; MySQL neither', () => {
    expect(mysqlVersionCaps('5.5.5-10.11.19-MariaDB-0+deb12u1')).toEqual({ insertReturning: true, deleteReturning: true });
    expect(mysqlVersionCaps('5.5.5-10.4.32-MariaDB')).toEqual({ insertReturning: false, deleteReturning: true });
    expect(mysqlVersionCaps('11.4.2-MariaDB')).toEqual({ insertReturning: true, deleteReturning: true });
    expect(mysqlVersionCaps('8.0.36')).toEqual({});
  });
});

describe('multi-row insert of bound values', () => {
  const insert = (rows: unknown[][]): Query => ({
    kind: 'insert',
    table: { name: 'entry' },
    columns: ['title', 'done'],
    rows: rows.map((r) => r.map((v) => val(v as never))),
    returning: ['id'],
  });

  test('the text is made once per shape; each call binds its own values, converted for the engine', () => {
    for (const e of ['sqlite', 'pg', 'mysql', 'mssql'] as Engine[]) {
      const d = dialectFor(e);
      const first = d.compile(insert([['a', true], ['b', false]]));
      const second = d.compile(insert([['c', false], ['d', true]]));
      expect(second.sql).toBe(first.sql);
      const yes = e === 'pg' ? true : 1;
      const no = e === 'pg' ? false : 0;
      expect(first.params).toEqual(['a', yes, 'b', no]);
      expect(second.params).toEqual(['c', no, 'd', yes]);
      // Another row count is another shape.
      expect(d.compile(insert([['x', true], ['y', true], ['z', true]])).sql).not.toBe(first.sql);
    }
    expect(dialectFor('pg').compile(insert([['a', true], ['b', false]])).sql).toBe('INSERT INTO "entry" ("title", "done") VALUES ($1, $2), ($3, $4) RETURNING "id"');
    expect(dialectFor('mssql').compile(insert([['a', true], ['b', false]])).sql).toBe('INSERT INTO [entry] ([title], [done]) OUTPUT INSERTED.[id] VALUES (@p1, @p2), (@p3, @p4)');
  });

  test('a row holding an expression takes the full compile', () => {
    const q: Query = { kind: 'insert', table: { name: 'entry' }, columns: ['title', 'done'], rows: [[val('a'), { kind: 'dangerousRaw', sql: 'DEFAULT' }], [val('b'), val(true)]] };
    expect(dialectFor('pg').compile(q)).toEqual({ sql: 'INSERT INTO "entry" ("title", "done") VALUES ($1, DEFAULT), ($2, $3)', params: ['a', 'b', true] });
  });
});
