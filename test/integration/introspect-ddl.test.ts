/**
 * DDL run against real SQLite, PostgreSQL and MariaDB, checked through introspection: created
 * tables, altered and renamed columns (SQLite by a rebuild that keeps rows, indexes and foreign
 * keys), foreign keys dropped and added again.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../../src/sql/open-database';
import { ddlFor, type TableShape } from '../../src/sql/ddl';
import { readSqliteTableShape } from '../../src/sql/sqlite/table-shape';
import type { Database } from '../../src/sql/dialect';
import type { SchemaModel, TableModel } from '../../src/schema/model';
import { describeEngines, dropDatabase, freshDatabase } from '../helpers/engines';

describeEngines('DDL seen by introspection', (engine) => {
  const name = `tablo_t_introspectddl_${engine}`;
  const ddl = ddlFor(engine);
  let db: Database;
  const run = async (statements: string[]) => {
    for (const sql of statements) await db.driver.execute({ sql, params: [] });
  };
  const shape = (table: string): Promise<TableShape | undefined> =>
    engine === 'sqlite' ? readSqliteTableShape(db.driver, table) : Promise.resolve(undefined);
  const table = (m: SchemaModel, tn: string): TableModel => m.tables.find((x) => x.tn === tn)!;
  const ph = (n: number) => (engine === 'pg' ? `$${n}` : '?');

  beforeAll(async () => {
    db = await openDatabase(await freshDatabase(engine, name));
    await run(ddl.createTable({ name: 'owner' }, [{ name: 'id', uidt: 'Number', pk: true }, { name: 'name', uidt: 'SingleLineText' }]));
    await run(
      ddl.createTable(
        { name: 'task item' },
        [
          { name: 'id', ai: true, pk: true },
          { name: 'title', uidt: 'SingleLineText', nullable: true },
          { name: 'owner_id', uidt: 'Number' },
          { name: 'code', uidt: 'SingleLineText', unique: true },
        ],
        [{ name: 'fk_task_owner', columns: ['owner_id'], refTable: 'owner', refColumns: ['id'] }],
      ),
    );
    const q = db.dialect.quoteId;
    await db.driver.execute({ sql: `CREATE INDEX ${q('task_title_ix')} ON ${q('task item')} (${q('title')})`, params: [] });
    await db.driver.execute({ sql: `INSERT INTO ${q('owner')} (${q('id')}, ${q('name')}) VALUES (${ph(1)}, ${ph(2)})`, params: [1, 'Ada'] });
    await db.driver.execute({
      sql: `INSERT INTO ${q('task item')} (${q('title')}, ${q('owner_id')}, ${q('code')}) VALUES (${ph(1)}, ${ph(2)}, ${ph(3)}), (${ph(4)}, ${ph(5)}, ${ph(6)})`,
      params: ['first ✓', 1, 'A', 'second', 1, 'B'],
    });
  });
  afterAll(async () => {
    await db.driver.close();
    await dropDatabase(engine, name);
  });

  test('created tables: auto-increment key, unique column, belongs-to / has-many', async () => {
    const m = await db.introspect();
    const task = table(m, 'task item');
    expect(task._tn).toBe('TaskItem');
    expect(task.pks).toEqual(['id']);
    expect(task.columns.find((c) => c.cn === 'id')).toMatchObject({ ai: true, uidt: 'ID' });
    expect(task.columns.find((c) => c.cn === 'code')?.unique).toBe(true);
    expect(task.relations.map((r) => `${r.type}:${r.alias}`)).toEqual(['bt:Owner']);
    expect(table(m, 'owner').relations.map((r) => `${r.type}:${r.alias}`)).toEqual(['hm:TaskItem']);
  });

  test('alter and rename a column: type, not null and default change, rows stay', async () => {
    await run(ddl.alterColumn({ name: 'task item' }, 'title', { name: 'summary', uidt: 'LongText', nullable: false, default: 'untitled' }, await shape('task item')));
    const task = table(await db.introspect(), 'task item');
    expect(task.columns.map((c) => c.cn)).toEqual(['id', 'summary', 'owner_id', 'code']);
    const summary = task.columns.find((c) => c.cn === 'summary')!;
    expect(summary).toMatchObject({ uidt: 'LongText', nullable: false });
    expect(summary.default).toContain('untitled');
    expect(task.columns.find((c) => c.cn === 'code')?.unique).toBe(true);
    expect(task.relations.map((r) => `${r.type}:${r.alias}`)).toEqual(['bt:Owner']);
    const q = db.dialect.quoteId;
    const rows = await db.driver.query<{ summary: string }>({ sql: `SELECT ${q('summary')} FROM ${q('task item')} ORDER BY ${q('id')}`, params: [] });
    expect(rows.map((r) => r.summary)).toEqual(['first ✓', 'second']);
    if (engine === 'sqlite') {
      const ix = await db.driver.query<{ sql: string }>({ sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'task_title_ix'", params: [] });
      expect(ix[0]?.sql).toContain('"summary"');
      const leftovers = await db.driver.query({ sql: "SELECT name FROM sqlite_master WHERE name LIKE 'nc_rebuild%'", params: [] });
      expect(leftovers).toEqual([]);
    }
  });

  test('drop and add a foreign key', async () => {
    const before = await shape('task item');
    const fkName = engine === 'sqlite' ? before!.fks[0]!.name : 'fk_task_owner';
    await run(ddl.dropForeignKey({ name: 'task item' }, fkName, before));
    let m = await db.introspect();
    expect(table(m, 'task item').relations).toEqual([]);
    expect(table(m, 'owner').relations).toEqual([]);
    await run(ddl.addForeignKey({ name: 'task item' }, { name: 'fk_task_owner', columns: ['owner_id'], refTable: 'owner', refColumns: ['id'] }, await shape('task item')));
    m = await db.introspect();
    expect(table(m, 'task item').relations.map((r) => `${r.type}:${r.alias}`)).toEqual(['bt:Owner']);
    const q = db.dialect.quoteId;
    const count = await db.driver.query<{ n: unknown }>({ sql: `SELECT COUNT(*) AS n FROM ${q('task item')}`, params: [] });
    expect(Number(count[0]!.n)).toBe(2);
  });
});
