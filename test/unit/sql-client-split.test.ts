/** The SQL Client's statement splitting per dialect, DDL detection, CSV export and error places. */
import { expect, test } from 'bun:test';
import { changesSchema, splitStatements } from '../../src/sql/raw/split';
import { toCsv } from '../../web/src/features/sql-editor/csv';
import { lineColumn } from '../../web/src/features/sql-editor/result-view';
import { formatScript } from '../../web/src/features/sql-editor/format-script';

const texts = (engine: Parameters<typeof splitStatements>[0], sql: string) => splitStatements(engine, sql).map((s) => s.sql);

test('semicolons inside strings, quoted names and comments do not split', () => {
  const sql = `SELECT 'a;b' AS "x;y"; -- one; two\nSELECT 2 /* ; */ AS two;`;
  const parts = splitStatements('pg', sql);
  expect(parts.map((p) => p.sql)).toEqual([`SELECT 'a;b' AS "x;y"`, '-- one; two\nSELECT 2 /* ; */ AS two']);
  // Offsets point into the text sent.
  expect(sql.slice(parts[1]!.start, parts[1]!.end)).toBe(parts[1]!.sql);
});

test('PostgreSQL dollar quotes keep a function body whole', () => {
  const fn = 'CREATE FUNCTION f() RETURNS int AS $body$ BEGIN RETURN 1; END $body$ LANGUAGE plpgsql';
  expect(texts('pg', `${fn}; SELECT f()`)).toEqual([fn, 'SELECT f()']);
});

test('SQLite triggers keep their BEGIN ... END; MySQL DELIMITER; SQL Server GO', () => {
  const trigger = 'CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = n + 1; DELETE FROM c; END';
  expect(texts('sqlite', `${trigger}; SELECT 1`)).toEqual([trigger, 'SELECT 1']);
  expect(texts('mysql', 'DELIMITER $$\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END$$\nDELIMITER ;\nCALL p()')).toEqual([
    'CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END',
    'CALL p()',
  ]);
  expect(texts('mssql', 'SELECT 1\nGO\nSELECT 2')).toEqual(['SELECT 1', 'SELECT 2']);
});

test('a transaction BEGIN is a statement of its own everywhere', () => {
  for (const engine of ['sqlite', 'pg', 'mysql'] as const) {
    expect(texts(engine, "BEGIN; INSERT INTO a VALUES (1); ROLLBACK; SELECT 'end'")).toEqual(['BEGIN', 'INSERT INTO a VALUES (1)', 'ROLLBACK', "SELECT 'end'"]);
  }
  const trigger = "CREATE TEMP TRIGGER t AFTER DELETE ON a BEGIN INSERT INTO log VALUES ('gone'); END";
  expect(texts('sqlite', `BEGIN; ${trigger}; COMMIT`)).toEqual(['BEGIN', trigger, 'COMMIT']);
});

test('blank and comment-only pieces are left out', () => {
  expect(texts('pg', ' ;; -- nothing\n; /* x */ ;')).toEqual([]);
});

test('schema-changing statements are recognised after comments', () => {
  expect(changesSchema('-- make it\nCREATE TABLE x (a int)')).toBe(true);
  expect(changesSchema('/* c */ alter table x add b int')).toBe(true);
  expect(changesSchema('COMMENT ON TABLE x IS \'y\'')).toBe(true);
  expect(changesSchema("SELECT 'create table'")).toBe(false);
  expect(changesSchema('INSERT INTO x VALUES (1)')).toBe(false);
});

test('CSV quotes what needs quoting and leaves NULL empty', () => {
  expect(toCsv([{ name: 'a' }, { name: 'b,c' }], [[1, 'x"y'], [null, 'line\nbreak']])).toBe('a,"b,c"\r\n1,"x""y"\r\n,"line\nbreak"\r\n');
});

test('an offset becomes a line and a column', () => {
  expect(lineColumn('SELECT 1;\nSELECT * FRM t', 19)).toEqual({ line: 2, column: 10 });
  expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 });
});

test("Format keeps MySQL's DELIMITER lines, so a formatted procedure script still runs as written", () => {
  const script = 'DELIMITER $$\ncreate procedure p() begin select 1; select 2; end$$\nDELIMITER ;\ncall p(); select 3';
  const formatted = formatScript(script, { language: 'mariadb', keywordCase: 'upper' }, true);
  expect(formatted.split('\n')).toContain('DELIMITER ;');
  const before = texts('mysql', script).map((s) => s.replace(/\s+/g, ' ').toUpperCase().replace(/ \(/g, '('));
  const after = texts('mysql', formatted).map((s) => s.replace(/\s+/g, ' ').toUpperCase().replace(/ \(/g, '('));
  expect(after).toEqual(before);
  expect(after).toEqual(['CREATE PROCEDURE P() BEGIN SELECT 1; SELECT 2; END', 'CALL P()', 'SELECT 3']);
  // Without DELIMITER lines, and on other engines, it is the formatter's own answer.
  expect(formatScript('select 1', { language: 'postgresql', keywordCase: 'upper' }, false)).toBe('SELECT\n  1');
});
