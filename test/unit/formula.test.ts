/**
 * The formula language: parse errors with their positions, unknown columns, type errors, the
 * canonical text and its rendering with current aliases, and the exact SQL per engine (SQL
 * Server included: these compile tests are its coverage here).
 */
import { describe, expect, test } from 'bun:test';
import { dialectFor } from '../../src/sql/engines';
import type { Engine } from '../../src/sql/dialect';
import type { Expr, Select } from '../../src/sql/ast';
import type { ColumnModel, RelationModel, TableModel } from '../../src/schema/model';
import { lookupExpr, rollupExpr } from '../../src/schema/virtual-relations';
import { parseFormula } from '../../src/schema/formula/formula-parser';
import { FormulaError } from '../../src/schema/formula/formula-error';
import { renameRefs, toCanonical, toDisplay } from '../../src/schema/formula/formula-text';
import { attachVirtuals, checkFormula, formulaTyped } from '../../src/schema/virtual-columns';
import { ISO_DATE_TEXT } from '../../src/sql/formula-spellings';

const column = (cn: string, _cn: string, kind: ColumnModel['kind']): ColumnModel => ({ cn, _cn, kind, dt: 'x', uidt: 'SingleLineText', pk: false, ai: false, nullable: true, default: null });

const T: TableModel = {
  tn: 'person', _tn: 'Person', type: 'table', pks: ['id'], displayColumn: 'first_name', relations: [],
  columns: [column('id', 'Id', 'integer'), column('first_name', 'First Name', 'string'), column('last_name', 'Last}Name', 'string'), column('born', 'Born', 'datetime'), column('n', 'N', 'integer')],
};

/** The error a formula gives (message and position), or null when it is valid. */
function problem(text: string): { msg: string; position?: number } | null {
  try {
    checkFormula(T, text);
    return null;
  } catch (e) {
    if (e instanceof FormulaError) return { msg: e.message, position: e.position };
    throw e;
  }
}

describe('parse and check', () => {
  test('syntax errors name the problem and where it is', () => {
    expect(problem('')).toEqual({ msg: 'The formula is empty', position: 0 });
    expect(problem('1 +')).toEqual({ msg: 'The formula ends too early', position: 3 });
    expect(problem('(1 + 2')).toEqual({ msg: "Missing ')'", position: 6 });
    expect(problem("CONCAT('a'")).toEqual({ msg: "Missing ')' after the arguments of CONCAT", position: 10 });
    expect(problem("'abc")).toEqual({ msg: 'Unterminated text: a closing quote is missing', position: 0 });
    expect(problem('{First Name')).toEqual({ msg: "Missing '}' after a column name", position: 0 });
    expect(problem('1 # 2')).toEqual({ msg: "Unexpected '#'", position: 2 });
    expect(problem('First')).toEqual({ msg: "'First' is not a function call: column names go in braces, like {First}", position: 0 });
    expect(problem('1 2')).toEqual({ msg: "Unexpected '2'", position: 2 });
  });

  test('unknown columns and functions, arity and types', () => {
    expect(problem('{Id} + {Nope}')).toEqual({ msg: "Column 'Nope' not found", position: 7 });
    expect(problem('FOO(1)')).toEqual({ msg: 'Unknown function FOO', position: 0 });
    expect(problem('MOD(1)')).toEqual({ msg: 'MOD takes 2 arguments: MOD(value, divisor)', position: 0 });
    expect(problem('IF(1)')).toEqual({ msg: 'IF takes 2 to 3 arguments: IF(condition, value_if_true, [value_if_false])', position: 0 });
    expect(problem('{First Name} * 2')).toEqual({ msg: "'*' needs a number, not text", position: 0 });
    expect(problem("{Id} = 'a'")).toEqual({ msg: 'Cannot compare a number with text', position: 5 });
    expect(problem("DATEADD({Born}, 1, 'fortnight')")).toEqual({ msg: "The unit must be one of 'seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years'", position: 19 });
    expect(problem("{Born} > '2000-01-01'")).toBeNull();
    expect(problem('{Last\\}Name} & {First Name}')).toBeNull();
  });

  test('types of values', () => {
    const type = (text: string) => formulaTyped(T, toCanonical(text, T), undefined).type;
    expect(type('{N} / 2')).toBe('number');
    expect(type("{First Name} & ' '")).toBe('string');
    expect(type('AND({N} > 1, TRUE)')).toBe('boolean');
    expect(type("DATEADD({Born}, 1, 'day')")).toBe('date');
    expect(type("IF({N} > 1, 'a', 2)")).toBe('string');
  });

  test('canonical text keeps SQL names; display text follows aliases; renames keep the rest as written', () => {
    const canonical = toCanonical("CONCAT( {First Name},' ', {Last\\}Name} )  &  {id}", T);
    expect(canonical).toBe("CONCAT( {c:first_name},' ', {c:last_name} )  &  {c:id}");
    expect(toDisplay(canonical, { ...T, columns: T.columns.map((c) => (c.cn === 'first_name' ? { ...c, _cn: 'Given' } : c)) })).toBe("CONCAT( {Given},' ', {Last\\}Name} )  &  {Id}");
    expect(renameRefs(canonical, 'c', 'first_name', 'given_name')).toBe("CONCAT( {c:given_name},' ', {c:last_name} )  &  {c:id}");
    expect(parseFormula('-{a} + 2 * 3 >= 1 & 2')).toMatchObject({ kind: 'binary', op: '>=', right: { kind: 'binary', op: '&' } });
  });
});

describe('compiled SQL per engine', () => {
  const ENGINES: Engine[] = ['sqlite', 'pg', 'mysql', 'mssql'];
  const compile = (text: string) => {
    const expr = formulaTyped(T, toCanonical(text, T), undefined).expr;
    const q: Select = { kind: 'select', from: { name: 'person' }, columns: [{ expr, as: 'v' }] };
    return Object.fromEntries(ENGINES.map((e) => [e, dialectFor(e).compile(q)]));
  };

  test('arithmetic: true division, NULL for a zero divisor, typed literals', () => {
    expect(compile('{N} / 1000')).toEqual({
      sqlite: { sql: 'SELECT ("n" * 1.0 / NULLIF(?, 0)) AS "v" FROM "person"', params: [1000] },
      pg: { sql: 'SELECT ("n" * 1.0 / NULLIF(CAST($1 AS numeric), 0)) AS "v" FROM "person"', params: [1000] },
      mysql: { sql: 'SELECT (`n` * 1.0 / NULLIF(?, 0)) AS `v` FROM `person`', params: [1000] },
      mssql: { sql: 'SELECT ([n] * 1.0 / NULLIF(@p1, 0)) AS [v] FROM [person]', params: [1000] },
    });
  });

  test('CONCAT and &: NULL parts count as empty text', () => {
    expect(compile("CONCAT({First Name}, ' ', {N})")).toEqual({
      sqlite: { sql: `SELECT (COALESCE("first_name", '') || COALESCE(?, '') || COALESCE(CAST("n" AS TEXT), '')) AS "v" FROM "person"`, params: [' '] },
      pg: { sql: 'SELECT CONCAT("first_name", CAST($1 AS text), CAST("n" AS text)) AS "v" FROM "person"', params: [' '] },
      mysql: { sql: "SELECT CONCAT_WS('', `first_name`, ?, CAST(`n` AS CHAR)) AS `v` FROM `person`", params: [' '] },
      mssql: { sql: 'SELECT CONCAT([first_name], @p1, CAST([n] AS nvarchar(max))) AS [v] FROM [person]', params: [' '] },
    });
  });

  test('SEARCH and RIGHT place their arguments as each engine wants them, parameters in step', () => {
    expect(compile("SEARCH({First Name}, 'a') + LEN(RIGHT({First Name}, 2))")).toEqual({
      sqlite: { sql: "SELECT (INSTR(\"first_name\", ?) + LENGTH(CASE WHEN MAX(CAST(? AS INTEGER), 0) > 0 THEN SUBSTR(\"first_name\", -(MAX(CAST(? AS INTEGER), 0))) ELSE '' END)) AS \"v\" FROM \"person\"", params: ['a', 2, 2] },
      pg: { sql: "SELECT (STRPOS(\"first_name\", CAST($1 AS text)) * 1.0 + LENGTH(RIGHT(\"first_name\", CASE WHEN CAST($2 AS numeric) IS NOT NULL THEN CAST(LEAST(GREATEST(CAST($3 AS numeric), 0), 2147483647) AS integer) END))) AS \"v\" FROM \"person\"", params: ['a', 2, 2] },
      mysql: { sql: "SELECT (LOCATE(?, `first_name`) + CHAR_LENGTH(RIGHT(`first_name`, GREATEST(CAST(? AS SIGNED), 0)))) AS `v` FROM `person`", params: ['a', 2] },
      mssql: { sql: "SELECT (CHARINDEX(@p1, [first_name]) + LEN(RIGHT([first_name], CASE WHEN @p2 IS NOT NULL THEN CAST(LEAST(GREATEST(@p3, 0), 2147483647) AS int) END))) AS [v] FROM [person]", params: ['a', 2, 2] },
    });
  });

  test('DATEADD and DATETIME_DIFF', () => {
    expect(compile("DATETIME_DIFF(DATEADD({Born}, {N}, 'month'), {Born}, 'days')")).toEqual({
      sqlite: { sql: "SELECT (CAST(ROUND((JULIANDAY(DATETIME(\"born\", CAST(CAST(\"n\" AS INTEGER) AS TEXT) || ' months')) - JULIANDAY(\"born\")) * 86400) AS INTEGER) / 86400) AS \"v\" FROM \"person\"", params: [] },
      pg: { sql: "SELECT TRUNC(EXTRACT(EPOCH FROM (CAST((NULLIF(NULLIF(LEAST(GREATEST(NULLIF(NULLIF(LEAST(GREATEST(CAST(\"born\" AS timestamp), TIMESTAMP '0001-12-31 23:59:59.999999 BC'), TIMESTAMP '10000-01-01 00:00:00'), TIMESTAMP '0001-12-31 23:59:59.999999 BC'), TIMESTAMP '10000-01-01 00:00:00') + INTERVAL '8000 years' + CAST(LEAST(GREATEST(\"n\", -120012), 120012) AS bigint) * INTERVAL '1 month', TIMESTAMP '8000-12-31 23:59:59.999999'), TIMESTAMP '18000-01-01 00:00:00'), TIMESTAMP '8000-12-31 23:59:59.999999'), TIMESTAMP '18000-01-01 00:00:00') - INTERVAL '8000 years') AS timestamp) - CAST(\"born\" AS timestamp))) / 86400) AS \"v\" FROM \"person\"", params: [] },
      mysql: { sql: "SELECT TIMESTAMPDIFF(DAY, `born`, DATE_ADD(`born`, INTERVAL CAST(`n` AS SIGNED) MONTH)) AS `v` FROM `person`", params: [] },
      mssql: { sql: "SELECT (DATEDIFF_BIG(second, [born], DATEADD(month, CASE WHEN [n] IS NOT NULL THEN CAST(LEAST(GREATEST([n], -2147483648), 2147483647) AS int) END, [born])) / 86400) AS [v] FROM [person]", params: [] },
    });
  });

  test('IF over a comparison; MIN of several values', () => {
    const r = compile("IF({N} >= 10, 'big', 'small') & MIN({N}, 3)");
    expect(r.pg!.sql).toBe(`SELECT CONCAT(CASE WHEN "n" >= CAST($1 AS numeric) THEN CAST($2 AS text) ELSE CAST($3 AS text) END, CAST(LEAST("n", CAST($4 AS numeric)) AS text)) AS "v" FROM "person"`);
    expect(r.mssql!.sql).toBe('SELECT CONCAT(CASE WHEN [n] >= @p1 THEN @p2 ELSE @p3 END, CAST(LEAST([n], @p4) AS nvarchar(max))) AS [v] FROM [person]');
    expect(r.sqlite!.sql).toBe(`SELECT (COALESCE(CASE WHEN "n" >= ? THEN ? ELSE ? END, '') || COALESCE(CAST(MIN("n", ?) AS TEXT), '')) AS "v" FROM "person"`);
    expect(r.mysql!.params).toEqual([10, 'big', 'small', 3]);
  });
});

describe('rollups and lookups compile to correlated sub-selects', () => {
  const rel = (type: 'hm' | 'bt' | 'mm'): RelationModel => ({
    type, tn: 'album', rtn: type === 'bt' ? 'artist' : 'track', alias: 'x',
    childTable: type === 'bt' ? 'album' : 'track', childColumns: [type === 'bt' ? 'artist_id' : 'album_id'],
    parentTable: type === 'bt' ? 'artist' : 'album', parentColumns: [type === 'bt' ? 'id' : 'id'],
    junction: type === 'mm' ? { tn: 'album_track', columns: ['a_id'], refColumns: ['id'], targetColumns: ['t_id'], targetRefColumns: ['id'] } : undefined,
  });
  const album: TableModel = { ...T, tn: 'album', _tn: 'Album', relations: [] };
  const sql = (expr: Expr) => Object.fromEntries((['sqlite', 'pg', 'mysql', 'mssql'] as Engine[]).map((e) => [e, dialectFor(e).compile({ kind: 'select', from: { name: 'album' }, columns: [{ expr, as: 'v' }] }).sql]));

  test('sum over has-many', () => {
    expect(sql(rollupExpr(album, rel('hm'), column('ms', 'Ms', 'integer'), 'sum', 'album')).mssql).toBe(
      'SELECT (SELECT SUM([__r].[ms]) FROM [track] AS [__r] WHERE [__r].[album_id] = [album].[id]) AS [v] FROM [album]',
    );
  });

  test('count of distinct values over many-to-many', () => {
    expect(sql(rollupExpr(album, rel('mm'), column('name', 'Name', 'string'), 'countDistinct', 'album')).pg).toBe(
      'SELECT (SELECT COUNT(DISTINCT "__r"."name") FROM "track" AS "__r" INNER JOIN "album_track" AS "__j" ON "__r"."id" = "__j"."t_id" WHERE "__j"."a_id" = "album"."id") AS "v" FROM "album"',
    );
  });

  test('lookups: the parent value over belongs-to, a sorted list over has-many', () => {
    expect(sql(lookupExpr(album, rel('bt'), column('name', 'Name', 'string'), 'album')).sqlite).toBe(
      'SELECT (SELECT "__r"."name" FROM "artist" AS "__r" WHERE "__r"."id" = "album"."artist_id") AS "v" FROM "album"',
    );
    expect(sql(lookupExpr(album, rel('hm'), column('name', 'Name', 'string'), 'album'))).toEqual({
      sqlite: `SELECT (SELECT GROUP_CONCAT("__r"."name", ', ' ORDER BY "__r"."name") FROM "track" AS "__r" WHERE "__r"."album_id" = "album"."id") AS "v" FROM "album"`,
      pg: `SELECT (SELECT STRING_AGG(CAST("__r"."name" AS text), ', ' ORDER BY "__r"."name") FROM "track" AS "__r" WHERE "__r"."album_id" = "album"."id") AS "v" FROM "album"`,
      mysql: "SELECT (SELECT GROUP_CONCAT(`__r`.`name` ORDER BY `__r`.`name` SEPARATOR ', ') FROM `track` AS `__r` WHERE `__r`.`album_id` = `album`.`id`) AS `v` FROM `album`",
      mssql: "SELECT (SELECT STRING_AGG(CAST([__r].[name] AS nvarchar(max)), ', ') WITHIN GROUP (ORDER BY [__r].[name]) FROM [track] AS [__r] WHERE [__r].[album_id] = [album].[id]) AS [v] FROM [album]",
    });
  });
});

describe('formulas using formulas', () => {
  const withFormulas = (defs: [string, string][]) => {
    const t: TableModel = { ...T, virtuals: undefined };
    attachVirtuals([t], new Map([[t.tn, { virtuals: defs.map(([_cn, expr]) => ({ _cn, uidt: 'Formula' as const, formula: { expr } })) }]]));
    return t;
  };

  test('a cycle marks every formula in it, with the path', () => {
    const t = withFormulas([['A', '{v:B} + 1'], ['B', '{v:A} * 2'], ['C', '{c:n} + 1']]);
    expect(t.virtuals!.map((v) => v.formula!.error ?? null)).toEqual(['The formula refers to itself: A -> B -> A', 'The formula refers to itself: B -> A -> B', null]);
    expect(t.virtuals![0]!.expr!()).toEqual({ kind: 'dangerousRaw', sql: 'NULL' });
  });

  test('expansion is bounded: a doubling chain is refused rather than compiled', () => {
    const defs: [string, string][] = [['L0', '{c:n} + {c:n}']];
    for (let i = 1; i < 12; i++) defs.push([`L${i}`, `{v:L${i - 1}} + {v:L${i - 1}}`]);
    const t = withFormulas(defs);
    expect(t.virtuals![3]!.formula!.error).toBeUndefined();
    expect(t.virtuals![11]!.formula!.error).toStartWith('The formula is too large once the formulas it uses are expanded');
  });
});

describe('formulas are total: a value that cannot be computed is NULL, never an error of the whole read', () => {
  const compile = (text: string, engine: Engine) => {
    const expr = formulaTyped(T, toCanonical(text, T), undefined).expr;
    return dialectFor(engine).compile({ kind: 'select', from: { name: 'person' }, columns: [{ expr, as: 'v' }] });
  };

  test('SQL Server: lengths and counts clamped to int (NULL kept), a negative length as 0, text read as a date with TRY_CAST', () => {
    expect(compile('MID({First Name}, {N}, 1e20)', 'mssql').sql).toBe(
      'SELECT SUBSTRING([first_name], CASE WHEN [n] IS NOT NULL THEN CAST(LEAST(GREATEST([n], -2147483648), 2147483647) AS int) END, CASE WHEN @p1 IS NOT NULL THEN CAST(LEAST(GREATEST(@p2, 0), 2147483647) AS int) END) AS [v] FROM [person]',
    );
    expect(compile('LEFT({First Name}, {N})', 'mssql').sql).toBe('SELECT LEFT([first_name], CASE WHEN [n] IS NOT NULL THEN CAST(LEAST(GREATEST([n], 0), 2147483647) AS int) END) AS [v] FROM [person]');
    expect(compile("DATETIME_DIFF({First Name}, {Born}, 'days')", 'mssql').sql).toBe('SELECT (DATEDIFF_BIG(second, [born], TRY_CAST([first_name] AS datetime2)) / 86400) AS [v] FROM [person]');
    expect(compile("DATEADD({Born}, {N}, 'day')", 'mssql').sql).toBe('SELECT DATEADD(day, CASE WHEN [n] IS NOT NULL THEN CAST(LEAST(GREATEST([n], -2147483648), 2147483647) AS int) END, [born]) AS [v] FROM [person]');
  });

  test('POWER gives NULL without a real value or past the largest double, on every engine (SQL Server spells LN as LOG)', () => {
    expect(compile('POWER({N}, 2)', 'mssql')).toEqual({
      sql: 'SELECT CASE WHEN ([n] IS NULL OR @p1 IS NULL) THEN NULL WHEN ([n] < 0 AND @p2 <> FLOOR(@p3)) THEN NULL WHEN ([n] = 0 AND @p4 < 0) THEN NULL WHEN (LEAST(GREATEST(@p5, -1000000), 1000000) * LOG(GREATEST(ABS([n]), 1e-300))) > 709.78 THEN NULL WHEN (LEAST(GREATEST(@p6, -1000000), 1000000) * LOG(GREATEST(ABS([n]), 1e-300))) < -745 THEN 0 ELSE POWER([n], @p7) END AS [v] FROM [person]',
      params: [2, 2, 2, 2, 2, 2, 2],
    });
    expect(compile('POWER({N}, 2)', 'pg').sql).toContain('* LN(GREATEST(ABS("n"), 1e-300))) > 709.78 THEN NULL');
  });

  test('PostgreSQL: integer arithmetic in numeric, MOD over numeric, text read as a date only when it holds one', () => {
    expect(compile('{N} * {N} - MOD({N}, 2)', 'pg')).toEqual({
      sql: 'SELECT (("n" * 1.0 * "n") * 1.0 - MOD(CAST("n" AS numeric), CAST(NULLIF(CAST($1 AS numeric), 0) AS numeric))) AS "v" FROM "person"',
      params: [2],
    });
    const sql = compile("DATETIME_DIFF({First Name}, {Born}, 'days')", 'pg').sql;
    expect(sql).toStartWith(`SELECT TRUNC(EXTRACT(EPOCH FROM (CAST(CAST(SUBSTRING(CAST("first_name" AS text) FROM '^(?:(?!0000)`);
    // A text literal holding an ISO date stays a bare value (an index on the column still serves); other text is read safely.
    expect(compile("{Born} > '2020-01-31'", 'pg').sql).toBe('SELECT COALESCE(("born" > $1), FALSE) AS "v" FROM "person"');
    expect(compile("{Born} > '2020-02-30'", 'pg').sql).toStartWith('SELECT COALESCE(("born" > CAST(SUBSTRING(CAST(CAST($1 AS text) AS text) FROM ');
  });

  test('the ISO date text every engine reads: real days only', () => {
    const iso = new RegExp(ISO_DATE_TEXT);
    for (const ok of ['2020-02-29', '2000-02-29 10:00', '2023-12-31T23:59:59.123456', '2021-03-04 10:00:00+02:00', '0001-01-01']) expect([ok, iso.test(ok)]).toEqual([ok, true]);
    for (const bad of ['2023-02-29', '1900-02-29', '2021-04-31', '0000-01-01', '2021-13-01', '2021-01-01 24:00', 'x', '12abc', '2021-1-1']) expect([bad, iso.test(bad)]).toEqual([bad, false]);
  });

  test('guards nested in guards are refused when written, measured without writing the SQL out', () => {
    const nested = `${'SQRT('.repeat(40)}{N}${')'.repeat(40)}`;
    const started = performance.now();
    expect(problem(nested)).toEqual({ msg: 'The formula is too large once written as SQL (at most 20000 parts): nest fewer SQRT, POWER, DATEADD or text-as-date calls in each other', position: undefined });
    // Written out, 40 nested guards would take forever: any answer in seconds was measured, not written.
    expect(performance.now() - started).toBeLessThan(5000);
    expect(problem(`${'SQRT('.repeat(8)}{N}${')'.repeat(8)}`)).toBeNull();
  });
});
