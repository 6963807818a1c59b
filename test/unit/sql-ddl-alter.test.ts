/** Exact DDL for column alteration and foreign keys per engine, SQLite's table rebuild included. */
import { describe, expect, test } from 'bun:test';
import { ddlFor, type TableShape } from '../../src/sql/ddl';

const t = { name: 'task' };
const title = { name: 'title', uidt: 'LongText' as const, nullable: false, default: 'none' };

describe('alter column', () => {
  test('PostgreSQL: type with a cast, nullability, default, then the rename', () => {
    expect(ddlFor('pg').alterColumn(t, 'title', { ...title, name: 'summary' })).toEqual([
      'ALTER TABLE "task" ALTER COLUMN "title" TYPE text USING "title"::text',
      'ALTER TABLE "task" ALTER COLUMN "title" SET NOT NULL',
      `ALTER TABLE "task" ALTER COLUMN "title" SET DEFAULT 'none'`,
      'ALTER TABLE "task" RENAME COLUMN "title" TO "summary"',
    ]);
    expect(ddlFor('pg').alterColumn(t, 'n', { name: 'n', uidt: 'Number' })).toEqual([
      'ALTER TABLE "task" ALTER COLUMN "n" TYPE bigint USING "n"::bigint',
      'ALTER TABLE "task" ALTER COLUMN "n" DROP NOT NULL',
      'ALTER TABLE "task" ALTER COLUMN "n" DROP DEFAULT',
    ]);
  });

  test('PostgreSQL: a Checkbox becomes a number and back though it has no such cast', () => {
    expect(ddlFor('pg').alterColumn(t, 'done', { name: 'done', uidt: 'Number' }, undefined, 'boolean')[0]).toBe(
      'ALTER TABLE "task" ALTER COLUMN "done" TYPE bigint USING CAST(CAST("done" AS integer) AS bigint)',
    );
    expect(ddlFor('pg').alterColumn(t, 'done', { name: 'done', uidt: 'Checkbox' }, undefined, 'bigint')[0]).toBe(
      'ALTER TABLE "task" ALTER COLUMN "done" TYPE boolean USING ("done" <> 0)',
    );
  });

  test('MySQL: one CHANGE COLUMN', () => {
    expect(ddlFor('mysql').alterColumn(t, 'title', { ...title, name: 'summary' })).toEqual([
      "ALTER TABLE `task` CHANGE COLUMN `title` `summary` text NOT NULL DEFAULT 'none'",
    ]);
  });

  test('SQL Server: the default constraint is found and dropped first', () => {
    const sql = ddlFor('mssql').alterColumn(t, 'title', title);
    expect(sql).toHaveLength(3);
    expect(sql[0]).toBe(
      "DECLARE @df sysname; SELECT @df = d.name FROM sys.default_constraints d JOIN sys.columns c ON c.object_id = d.parent_object_id AND c.column_id = d.parent_column_id WHERE d.parent_object_id = OBJECT_ID(N'[task]') AND c.name = N'title'; IF @df IS NOT NULL EXEC(N'ALTER TABLE [task] DROP CONSTRAINT ' + QUOTENAME(@df))",
    );
    expect(sql.slice(1)).toEqual(["ALTER TABLE [task] ALTER COLUMN [title] nvarchar(max) NOT NULL", "ALTER TABLE [task] ADD DEFAULT 'none' FOR [title]"]);
  });

  test('SQLite: a rebuild that keeps rows, indexes, triggers and foreign keys, then the rename', () => {
    const shape: TableShape = {
      columns: [
        { name: 'id', type: 'INTEGER', pk: true, pkOrder: 0, nullable: false },
        { name: 'title', type: 'varchar(20)', nullable: true, dangerousDefaultSql: "'x'" },
        { name: 'owner', type: 'integer', nullable: true },
      ],
      uniques: [['title', 'owner']],
      fks: [{ name: 'fk_task_0', columns: ['owner'], refTable: 'user', refColumns: ['id'], onDelete: 'CASCADE' }],
      recreate: ['CREATE INDEX "task_owner" ON "task" ("owner")'],
    };
    expect(ddlFor('sqlite').alterColumn(t, 'title', { ...title, name: 'summary' }, shape)).toEqual([
      'PRAGMA foreign_keys = OFF',
      'BEGIN',
      `CREATE TABLE "nc_rebuild_task" ("id" INTEGER NOT NULL PRIMARY KEY, "title" text NOT NULL DEFAULT 'none', "owner" integer, UNIQUE ("title", "owner"), CONSTRAINT "fk_task_0" FOREIGN KEY ("owner") REFERENCES "user" ("id") ON DELETE CASCADE)`,
      'INSERT INTO "nc_rebuild_task" ("id", "title", "owner") SELECT "id", "title", "owner" FROM "task"',
      'DROP TABLE "task"',
      'PRAGMA legacy_alter_table = ON',
      'ALTER TABLE "nc_rebuild_task" RENAME TO "task"',
      'PRAGMA legacy_alter_table = OFF',
      'CREATE INDEX "task_owner" ON "task" ("owner")',
      'COMMIT',
      'PRAGMA foreign_keys = ON',
      'ALTER TABLE "task" RENAME COLUMN "title" TO "summary"',
    ]);
    expect(() => ddlFor('sqlite').alterColumn(t, 'title', title)).toThrow('readSqliteTableShape');
  });

  test('hostile names stay quoted', () => {
    expect(ddlFor('pg').alterColumn({ name: 'a"b' }, 'c"d', { name: 'c"d', type: 'text' })[0]).toBe(
      'ALTER TABLE "a""b" ALTER COLUMN "c""d" TYPE text USING "c""d"::text',
    );
    expect(ddlFor('mysql').alterColumn({ name: 'a`b' }, 'x', { name: 'y`z', type: 'text' })).toEqual(['ALTER TABLE `a``b` CHANGE COLUMN `x` `y``z` text']);
  });
});

describe('foreign keys', () => {
  const fk = { name: 'fk_task_owner', columns: ['owner'], refTable: 'user', refColumns: ['id'] };
  test('add and drop per engine', () => {
    expect(ddlFor('pg').addForeignKey(t, fk)).toEqual(['ALTER TABLE "task" ADD CONSTRAINT "fk_task_owner" FOREIGN KEY ("owner") REFERENCES "user" ("id")']);
    expect(ddlFor('pg').dropForeignKey(t, 'fk_task_owner')).toEqual(['ALTER TABLE "task" DROP CONSTRAINT "fk_task_owner"']);
    expect(ddlFor('mysql').dropForeignKey(t, 'fk_task_owner')).toEqual(['ALTER TABLE `task` DROP FOREIGN KEY `fk_task_owner`']);
    expect(ddlFor('mssql').dropForeignKey(t, 'fk_task_owner')).toEqual(['ALTER TABLE [task] DROP CONSTRAINT [fk_task_owner]']);
  });
  test('SQLite rebuilds the table with or without the key', () => {
    const shape: TableShape = { columns: [{ name: 'id', type: 'integer', pk: true }, { name: 'owner', type: 'integer' }], uniques: [], fks: [], recreate: [] };
    const add = ddlFor('sqlite').addForeignKey(t, fk, shape);
    expect(add[2]).toBe('CREATE TABLE "nc_rebuild_task" ("id" integer NOT NULL PRIMARY KEY, "owner" integer, CONSTRAINT "fk_task_owner" FOREIGN KEY ("owner") REFERENCES "user" ("id"))');
    const drop = ddlFor('sqlite').dropForeignKey(t, 'fk_task_owner', { ...shape, fks: [fk] });
    expect(drop[2]).toBe('CREATE TABLE "nc_rebuild_task" ("id" integer NOT NULL PRIMARY KEY, "owner" integer)');
  });
});
