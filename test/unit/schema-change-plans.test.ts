/**
 * Exact statements of planned schema changes (up and down) per engine, from a model alone: SQL
 * Server (no server here, so these are its tests), PostgreSQL and MySQL. SQLite's rebuilds read
 * the catalogue and are covered by the integration tests.
 */
import { describe, expect, test } from 'bun:test';
import { planContext, type ChangePlan } from '../../src/schema/change-plan';
import { makeProjectDb } from '../../src/schema/project-db';
import { dialectFor } from '../../src/sql/engines';
import type { Database, Engine } from '../../src/sql/dialect';
import type { ColumnModel, SchemaModel, TableModel } from '../../src/schema/model';
import { planTableCreate, planTableDelete, planTableRename } from '../../src/schema/table-changes';
import { planColumnAdd, planColumnDelete, planColumnUpdate } from '../../src/schema/column-changes';
import { planRelationCreate, planRelationDelete } from '../../src/schema/relation-changes';
import { createEvolutionsSql, deleteEvolution, insertEvolution } from '../../src/sql/evolutions';
import { withoutTxControl } from '../../src/sql/ddl-runner';
import { typeChangeLosses } from '../../src/sql/type-change-losses';

const col = (cn: string, dt: string, extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn, _cn: cn, dt, dtx: dt, uidt: 'SingleLineText', kind: 'string', pk: false, ai: false, nullable: true, default: null, ...extra,
});
const key = (dt: string) => col('id', dt, { pk: true, ai: true, uidt: 'ID', kind: 'integer', nullable: false });
const table = (tn: string, columns: ColumnModel[], relations: TableModel['relations'] = []): TableModel => ({
  tn, _tn: tn, type: 'table', columns, pks: columns.filter((c) => c.pk).map((c) => c.cn), displayColumn: null, relations,
});

/**
 * A planning context over a hand-made model; these plans read no catalogue, so no database is
 * opened. The tables are empty: a query a plan makes of their rows (is a column empty somewhere?) finds none.
 */
function ctxFor(engine: Engine, text: string, int: string) {
  const model: SchemaModel = {
    tables: [
      table('task', [key(int), col('title', text), col('points', text), col('project_id', int)], [
        { type: 'bt', tn: 'task', rtn: 'project', alias: 'project', childTable: 'task', childColumns: ['project_id'], parentTable: 'project', parentColumns: ['id'], fkName: 'fk_task_project' },
      ]),
      table('project', [key(int)], [
        { type: 'hm', tn: 'project', rtn: 'task', alias: 'task', childTable: 'task', childColumns: ['project_id'], parentTable: 'project', parentColumns: ['id'], fkName: 'fk_task_project' },
      ]),
      table('tag', [key(int)]),
    ],
    functions: [], procedures: [], sequences: [],
  };
  const db = { config: { client: engine, connection: {} }, dialect: dialectFor(engine), driver: { query: async () => [] } } as unknown as Database;
  return planContext(makeProjectDb('p', 'dev', 'db', db, model));
}
const plan = (p: ChangePlan) => ({ up: p.up, down: p.down });

describe('SQL Server', () => {
  const ctx = ctxFor('mssql', 'nvarchar(255)', 'int');

  test('tables: create with the default columns, rename, delete', async () => {
    expect(plan(await planTableCreate(ctx, { tn: 'note' }))).toEqual({
      up: ['CREATE TABLE [note] ([id] int IDENTITY(1,1) PRIMARY KEY, [title] nvarchar(255), [created_at] datetime2 DEFAULT CURRENT_TIMESTAMP, [updated_at] datetime2 DEFAULT CURRENT_TIMESTAMP)'],
      down: ['DROP TABLE [note]'],
    });
    expect(plan(await planTableRename(ctx, { tn: 'tag', newTn: 'label' }))).toEqual({
      up: ["EXEC sp_rename N'[tag]', N'label'"],
      down: ["EXEC sp_rename N'[label]', N'tag'"],
    });
    expect(plan(await planTableDelete(ctx, { tn: 'task' }))).toEqual({
      up: ['DROP TABLE [task]'],
      down: ['CREATE TABLE [task] ([id] int IDENTITY(1,1) PRIMARY KEY, [title] nvarchar(255), [points] nvarchar(255), [project_id] int, CONSTRAINT [fk_task_project] FOREIGN KEY ([project_id]) REFERENCES [project] ([id]))'],
    });
    await expect(planTableDelete(ctx, { tn: 'project' })).rejects.toThrow("referred to by 'task'");
  });

  const dropDefault = (cn: string) =>
    `DECLARE @df sysname; SELECT @df = d.name FROM sys.default_constraints d JOIN sys.columns c ON c.object_id = d.parent_object_id AND c.column_id = d.parent_column_id WHERE d.parent_object_id = OBJECT_ID(N'[task]') AND c.name = N'${cn}'; IF @df IS NOT NULL EXEC(N'ALTER TABLE [task] DROP CONSTRAINT ' + QUOTENAME(@df))`;
  /** SQL Server drops a column only once its default constraint is gone. */
  const dropColumn = (cn: string) => `${dropDefault(cn)}; ALTER TABLE [task] DROP COLUMN [${cn}]`;

  test('columns: add by logical type, change type / nullability / default / name, delete', async () => {
    expect(plan(await planColumnAdd(ctx, { tn: 'task', column: { cn: 'email', uidt: 'Email', unique: true } }))).toEqual({
      up: ['ALTER TABLE [task] ADD [email] nvarchar(255)', 'ALTER TABLE [task] ADD CONSTRAINT [uq_task_email] UNIQUE ([email])'],
      down: ['ALTER TABLE [task] DROP CONSTRAINT [uq_task_email]', dropColumn('email')],
    });
    expect(plan(await planColumnAdd(ctx, { tn: 'task', column: { cn: 'price', uidt: 'Decimal', dtxp: '10,2', nullable: false, default: 0 } }))).toEqual({
      up: ['ALTER TABLE [task] ADD [price] decimal(10,2) NOT NULL DEFAULT 0'],
      down: [dropColumn('price')],
    });
    expect(plan(await planColumnUpdate(ctx, { tn: 'task', cn: 'points', column: { cn: 'score', uidt: 'Number', nullable: false, default: 0 } }))).toEqual({
      up: [dropDefault('points'), 'ALTER TABLE [task] ALTER COLUMN [points] bigint NOT NULL', 'ALTER TABLE [task] ADD DEFAULT 0 FOR [points]', "EXEC sp_rename N'[task].[points]', N'score', 'COLUMN'"],
      down: [dropDefault('score'), 'ALTER TABLE [task] ALTER COLUMN [score] nvarchar(255) NULL', "EXEC sp_rename N'[task].[score]', N'points', 'COLUMN'"],
    });
    expect(plan(await planColumnUpdate(ctx, { tn: 'task', cn: 'title', column: { unique: true } }))).toEqual({
      up: ['ALTER TABLE [task] ADD CONSTRAINT [uq_task_title] UNIQUE ([title])'],
      down: ['ALTER TABLE [task] DROP CONSTRAINT [uq_task_title]'],
    });
    expect(plan(await planColumnDelete(ctx, { tn: 'task', cn: 'title' }))).toEqual({
      up: [dropColumn('title')],
      down: ['ALTER TABLE [task] ADD [title] nvarchar(255)'],
    });
    await expect(planColumnDelete(ctx, { tn: 'task', cn: 'id' })).rejects.toThrow('primary key');
  });

  test('relations: has-many foreign key, many-to-many junction, and their removal', async () => {
    expect(plan(await planRelationCreate(ctx, { type: 'hm', parentTn: 'tag', childTn: 'task', onDelete: 'SET NULL' }))).toEqual({
      up: ['ALTER TABLE [task] ADD [tag_id] int', 'ALTER TABLE [task] ADD CONSTRAINT [fk_task_tag_id] FOREIGN KEY ([tag_id]) REFERENCES [tag] ([id]) ON DELETE SET NULL'],
      down: ['ALTER TABLE [task] DROP CONSTRAINT [fk_task_tag_id]', dropColumn('tag_id')],
    });
    expect(plan(await planRelationCreate(ctx, { type: 'mm', parentTn: 'task', childTn: 'tag' }))).toEqual({
      up: [
        'CREATE TABLE [task_tag] ([task_id] int NOT NULL, [tag_id] int NOT NULL, PRIMARY KEY ([task_id], [tag_id]), CONSTRAINT [fk_task_tag_task_id] FOREIGN KEY ([task_id]) REFERENCES [task] ([id]) ON DELETE CASCADE, CONSTRAINT [fk_task_tag_tag_id] FOREIGN KEY ([tag_id]) REFERENCES [tag] ([id]) ON DELETE CASCADE)',
      ],
      down: ['DROP TABLE [task_tag]'],
    });
    expect(plan(await planRelationDelete(ctx, { type: 'hm', parentTn: 'project', childTn: 'task' }))).toEqual({
      up: ['ALTER TABLE [task] DROP CONSTRAINT [fk_task_project]', dropColumn('project_id')],
      down: ['ALTER TABLE [task] ADD [project_id] int', 'ALTER TABLE [task] ADD CONSTRAINT [fk_task_project] FOREIGN KEY ([project_id]) REFERENCES [project] ([id])'],
    });
  });

  test('_evolutions: created when missing, rows added and removed with bound values', () => {
    expect(createEvolutionsSql('mssql')).toBe(
      "IF OBJECT_ID(N'_evolutions', N'U') IS NULL CREATE TABLE [_evolutions] ([id] varchar(64) NOT NULL PRIMARY KEY, [title] varchar(255) NOT NULL, [applied_at] varchar(32) NOT NULL)",
    );
    const ins = insertEvolution('mssql', 'mg_1', 'Create table');
    expect(ins.sql).toBe('INSERT INTO [_evolutions] ([id], [title], [applied_at]) VALUES (@p1, @p2, @p3)');
    expect(ins.params.slice(0, 2)).toEqual(['mg_1', 'Create table']);
    expect(deleteEvolution('mssql', 'mg_1')).toEqual({ sql: 'DELETE FROM [_evolutions] WHERE [id] = @p1', params: ['mg_1'] });
  });
});

describe('PostgreSQL and MySQL', () => {
  test('PostgreSQL: a type change casts the values; renames and unique constraints', async () => {
    const ctx = ctxFor('pg', 'character varying(255)', 'integer');
    expect(plan(await planColumnUpdate(ctx, { tn: 'task', cn: 'points', column: { uidt: 'Number' } }))).toEqual({
      up: ['ALTER TABLE "task" ALTER COLUMN "points" TYPE bigint USING "points"::bigint', 'ALTER TABLE "task" ALTER COLUMN "points" DROP NOT NULL', 'ALTER TABLE "task" ALTER COLUMN "points" DROP DEFAULT'],
      down: [
        'ALTER TABLE "task" ALTER COLUMN "points" TYPE character varying(255) USING "points"::character varying(255)',
        'ALTER TABLE "task" ALTER COLUMN "points" DROP NOT NULL',
        'ALTER TABLE "task" ALTER COLUMN "points" DROP DEFAULT',
      ],
    });
    expect(plan(await planColumnUpdate(ctx, { tn: 'task', cn: 'title', column: { cn: 'heading', unique: true } }))).toEqual({
      up: ['ALTER TABLE "task" RENAME COLUMN "title" TO "heading"', 'ALTER TABLE "task" ADD CONSTRAINT "uq_task_heading" UNIQUE ("heading")'],
      down: ['ALTER TABLE "task" DROP CONSTRAINT "uq_task_heading"', 'ALTER TABLE "task" RENAME COLUMN "heading" TO "title"'],
    });
    expect((await planTableCreate(ctx, { tn: 'note' })).up).toEqual([
      'CREATE TABLE "note" ("id" integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "title" varchar(255), "created_at" timestamp DEFAULT CURRENT_TIMESTAMP, "updated_at" timestamp DEFAULT CURRENT_TIMESTAMP)',
    ]);
  });

  test('MySQL: CHANGE COLUMN, then the unique index; undo statements mirror each step', async () => {
    const ctx = ctxFor('mysql', 'varchar(255)', 'int(11)');
    expect(plan(await planColumnUpdate(ctx, { tn: 'task', cn: 'title', column: { cn: 'heading', uidt: 'LongText', unique: true } }))).toEqual({
      up: ['ALTER TABLE `task` CHANGE COLUMN `title` `heading` text', 'ALTER TABLE `task` ADD CONSTRAINT `uq_task_heading` UNIQUE (`heading`)'],
      down: ['ALTER TABLE `task` DROP INDEX `uq_task_heading`', 'ALTER TABLE `task` CHANGE COLUMN `heading` `title` varchar(255)'],
    });
    expect(plan(await planRelationCreate(ctx, { type: 'hm', parentTn: 'tag', childTn: 'task', childColumn: 'label_id' }))).toEqual({
      up: ['ALTER TABLE `task` ADD COLUMN `label_id` int(11)', 'ALTER TABLE `task` ADD CONSTRAINT `fk_task_label_id` FOREIGN KEY (`label_id`) REFERENCES `tag` (`id`)'],
      down: ['ALTER TABLE `task` DROP FOREIGN KEY `fk_task_label_id`', 'ALTER TABLE `task` DROP COLUMN `label_id`'],
    });
    expect(createEvolutionsSql('mysql')).toStartWith('CREATE TABLE IF NOT EXISTS `_evolutions` (');
  });

  test('bad input is refused before any statement', async () => {
    const ctx = ctxFor('pg', 'text', 'integer');
    await expect(planTableCreate(ctx, { tn: 'task' })).rejects.toThrow("A table named 'task' already exists");
    await expect(planTableCreate(ctx, { tn: 'xc_x' })).rejects.toThrow('reserved');
    await expect(planColumnAdd(ctx, { tn: 'task', column: { cn: 'TITLE', uidt: 'Number' } })).rejects.toThrow('already exists');
    await expect(planColumnUpdate(ctx, { tn: 'task', cn: 'id', column: { uidt: 'SingleLineText' } })).rejects.toThrow('primary key');
    await expect(planRelationDelete(ctx, { type: 'mm', parentTn: 'task', childTn: 'tag' })).rejects.toThrow('No many-to-many');
  });

  test("SQLite rebuild plans drop their own BEGIN / COMMIT / PRAGMA lines: the runner owns the transaction", () => {
    expect(withoutTxControl(['PRAGMA foreign_keys = OFF', 'BEGIN', 'CREATE TABLE x (a)', 'COMMIT', 'PRAGMA foreign_keys = ON'])).toEqual(['CREATE TABLE x (a)']);
  });
});

describe('logical type changes that keep the native type', () => {
  test('SingleLineText -> Email changes metadata only; native spellings compare equal', async () => {
    const { sameNativeType } = await import('../../src/schema/column-input');
    expect(sameNativeType('character varying(255)', 'varchar(255)')).toBe(true);
    expect(sameNativeType('bigint(20)', 'bigint')).toBe(true);
    expect(sameNativeType('timestamp without time zone', 'timestamp')).toBe(true);
    expect(sameNativeType('varchar(255)', 'varchar(32)')).toBe(false);
    const ctx = ctxFor('pg', 'character varying(255)', 'integer');
    const p = await planColumnUpdate(ctx, { tn: 'task', cn: 'title', column: { uidt: 'Email' } });
    expect(plan(p)).toEqual({ up: [], down: [] });
  });
});

describe('loss probes of type changes (SQL Server has no server here: these are its tests)', () => {
  const from = { kind: 'decimal' as const, type: 'decimal(20,6)' };
  test('a fraction rounded away, per engine', () => {
    const sql = (engine: Engine) => typeChangeLosses(engine, { name: 'task' }, 'ratio', from, { kind: 'bigint', type: 'bigint' }).map((p) => p.sql);
    expect(sql('mssql')).toEqual(['SELECT TOP 1 [ratio] AS v, ROUND([ratio], 0) AS w FROM [task] WHERE [ratio] <> ROUND([ratio], 0)']);
    expect(sql('pg')).toEqual(['SELECT "ratio" AS v, ROUND(CAST("ratio" AS numeric), 0) AS w FROM "task" WHERE "ratio" <> ROUND(CAST("ratio" AS numeric), 0) LIMIT 1']);
    expect(sql('mysql')).toEqual(['SELECT `ratio` AS v, ROUND(`ratio`, 0) AS w FROM `task` WHERE `ratio` <> ROUND(`ratio`, 0) LIMIT 1']);
  });
  test('which changes can lose values, and what is said of them', () => {
    const kinds = (f: { kind: ColumnModel['kind']; type: string }, t: { kind: ColumnModel['kind']; type: string }) => typeChangeLosses('mssql', { name: 't' }, 'c', f, t).length;
    expect(kinds({ kind: 'integer', type: 'int' }, { kind: 'decimal', type: 'decimal(10,2)' })).toBe(0);
    expect(kinds({ kind: 'decimal', type: 'decimal(10,2)' }, { kind: 'decimal', type: 'decimal(19,4)' })).toBe(0);
    expect(kinds(from, { kind: 'decimal', type: 'decimal(19,4)' })).toBe(1);
    expect(kinds({ kind: 'date', type: 'date' }, { kind: 'datetime', type: 'datetime2' })).toBe(0);
    expect(kinds({ kind: 'string', type: 'nvarchar(255)' }, { kind: 'string', type: 'nvarchar(max)' })).toBe(0);
    expect(kinds({ kind: 'string', type: 'nvarchar(max)' }, { kind: 'string', type: 'nvarchar(255)' })).toBe(1);
    const [cut] = typeChangeLosses('mssql', { name: 't' }, 'c', from, { kind: 'integer', type: 'int' });
    expect(cut!.says({ v: '12.500000', w: '13.000000' })).toBe('12.5 would become 13');
    const [time] = typeChangeLosses('mssql', { name: 't' }, 'c', { kind: 'datetime', type: 'datetime2' }, { kind: 'date', type: 'date' });
    expect(time!.sql).toBe("SELECT TOP 1 [c] AS v FROM [t] WHERE CAST([c] AS time) <> '00:00:00'");
  });
});
