/**
 * A filtered list sorted descending on an indexed column walks the index backwards on every
 * engine: the primary-key tiebreak follows the sort's direction, so no engine sorts the rows itself
 * (SQLite: no temp B-tree, MariaDB: no filesort; PostgreSQL walks the index backwards and at most
 * orders rows of equal created_at by key, never sorting the whole match).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../../src/sql/open-database';
import type { Database } from '../../src/sql/dialect';
import { parseSort } from '../../src/data/list-query';
import { col, eq, val } from '../../src/sql/ast';
import type { ColumnModel, TableModel } from '../../src/schema/model';
import { describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';

const column = (cn: string, kind: ColumnModel['kind'], extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn, _cn: cn, dt: kind, uidt: 'SingleLineText', kind, pk: false, ai: false, nullable: true, default: null, ...extra,
});
const ORDERS: TableModel = {
  tn: 'orders', _tn: 'Orders', type: 'table', pks: ['id'], displayColumn: 'status', relations: [],
  columns: [column('id', 'integer', { pk: true }), column('status', 'string'), column('created_at', 'datetime')],
};
const ROWS = 30_000;

describeEngines('sorted lists use the index', (engine) => {
  const name = `tablo_t_sortindex_${engine}`;
  let db: Database;

  beforeAll(async () => {
    await freshDatabase(engine, name);
    const ts = engine === 'pg' ? 'TIMESTAMP' : engine === 'mysql' ? 'DATETIME' : 'TEXT';
    const fill =
      engine === 'pg'
        ? `INSERT INTO orders SELECT g, (ARRAY['new','paid','sent','done'])[1 + g % 4], TIMESTAMP '2026-01-01' + g * INTERVAL '1 minute' FROM generate_series(1, ${ROWS}) g;`
        : engine === 'mysql'
          ? `INSERT INTO orders WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${ROWS}) SELECT g, ELT(1 + g % 4, 'new','paid','sent','done'), TIMESTAMP '2026-01-01 00:00:00' + INTERVAL g MINUTE FROM s;`
          : `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < ${ROWS}) INSERT INTO orders SELECT g, CASE g % 4 WHEN 0 THEN 'new' WHEN 1 THEN 'paid' WHEN 2 THEN 'sent' ELSE 'done' END, datetime('2026-01-01', '+' || g || ' minutes') FROM s;`;
    const setting = engine === 'mysql' ? 'SET SESSION max_recursive_iterations = 100000;\n' : '';
    await runScript(
      engine,
      name,
      `${setting}CREATE TABLE orders (id INTEGER PRIMARY KEY, status VARCHAR(10) NOT NULL, created_at ${ts} NOT NULL);
CREATE INDEX orders_status_created ON orders (status, created_at);
${fill}
${engine === 'mysql' ? 'ANALYZE TABLE orders;' : 'ANALYZE;'}`,
    );
    db = await openDatabase({ ...(await import('../helpers/engines')).connectionFor(engine, name), poolMax: 1 });
  }, 120_000);
  afterAll(async () => {
    await db?.driver.close();
    await dropDatabase(engine, name);
  });

  test('filter on status, sort -created_at, offset 10000: an index walk, no sort step', async () => {
    const orderBy = parseSort(ORDERS, '-created_at');
    const q = db.dialect.compile({
      kind: 'select',
      from: { name: 'orders' },
      columns: [{ expr: col('id') }, { expr: col('status') }, { expr: col('created_at') }],
      where: eq(col('status'), val('paid')),
      orderBy,
      limit: 25,
      offset: 5000,
    });
    expect(q.sql).toContain(engine === 'mysql' ? '`created_at` DESC, `id` DESC' : '"created_at" DESC, "id" DESC');
    const explain = engine === 'sqlite' ? `EXPLAIN QUERY PLAN ${q.sql}` : engine === 'pg' ? `EXPLAIN (FORMAT JSON) ${q.sql}` : `EXPLAIN FORMAT=JSON ${q.sql}`;
    // A JSON plan comes as its text (json columns travel as text): parsed, so its keys read as written below.
    const parsed = (v: unknown) => (typeof v === 'string' && /^\s*[[{]/.test(v) ? JSON.parse(v) : v);
    const plan = JSON.stringify((await db.driver.query<Record<string, unknown>>({ sql: explain, params: q.params })).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, parsed(v)]))));
    expect(plan).toContain('orders_status_created');
    if (engine === 'sqlite') expect(plan).not.toContain('TEMP B-TREE');
    // PostgreSQL and MariaDB: see below. (The list with the key ascending would make MariaDB filesort.)
    if (engine === 'pg') {
      // The index holds (status, created_at) in order; rows of equal created_at may still be put in
      // key order by an incremental sort over each group, never by a sort of the whole match.
      expect(plan).toContain('"Scan Direction":"Backward"');
      expect(plan).not.toContain('"Node Type":"Sort"');
    }
    if (engine === 'mysql') expect(plan).not.toContain('filesort');
    const rows = await db.driver.query<{ id: unknown }>(q);
    expect(rows.length).toBe(25);
  });
});
