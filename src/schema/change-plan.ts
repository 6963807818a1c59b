/**
 * A planned schema change: the statements that make it (up) and undo it (down), computed from the
 * model and the catalogue before anything runs, so the dashboard can show them first. What
 * metadata must follow (display names, logical types, renamed keys) and which schema events to
 * announce ride along.
 */
import type { Database, Engine } from '../sql/dialect';
import type { TableRef } from '../sql/ast';
import { ddlFor, type TableShape } from '../sql/ddl';
import type { DdlCheck } from '../sql/ddl-runner';
import { readSqliteTableShape } from '../sql/sqlite/table-shape';
import { isInternalTable } from '../sql/schema-model';
import type { TableUserMeta } from '../meta/models-repo';
import { badRequest, conflict, notFound } from '../lib/errors';
import { LIMITS } from '../config/limits';
import type { ColumnModel, TableModel } from './model';
import type { ProjectDb } from './project-db';
import type { SchemaEvent } from './schema-events';

/** Reads and writes user metadata of tables by SQL name while a change is applied. */
export interface MetaEdits {
  get(tn: string): Promise<TableUserMeta>;
  set(tn: string, m: TableUserMeta): Promise<void>;
  remove(tn: string): Promise<void>;
}

/** A schema event without its scope (the applier adds project and database). */
export type ChangeEvent = SchemaEvent extends infer E ? (E extends unknown ? Omit<E, 'meta' | 'projectId' | 'dbAlias'> : never) : never;

/** Up and down statements of one change, with what follows it. */
export interface ChangePlan {
  title: string;
  up: string[];
  down: string[];
  /** Queries that must find no row before the change is kept (values a type change could not convert). */
  checks?: DdlCheck[];
  /**
   * Queries run before the change, each finding a value it would alter or drop (a fraction
   * rounded away, a time of day cut): the change runs only once the caller accepts the loss.
   */
  losses?: DdlCheck[];
  /** Metadata edits once the statements ran. */
  meta?: (edits: MetaEdits) => Promise<void>;
  events?: ChangeEvent[];
  /** SQL name of the table to answer with, after the change. */
  table?: string;
}

/** What every planner receives. */
export interface PlanContext {
  pdb: ProjectDb;
  db: Database;
  engine: Engine;
  ddl: ReturnType<typeof ddlFor>;
}

/** The planning context of an open project database. */
export function planContext(pdb: ProjectDb): PlanContext {
  const engine = pdb.db.dialect.engine;
  return { pdb, db: pdb.db, engine, ddl: ddlFor(engine) };
}

/** DDL names tables without their schema: the connection's search path / default schema applies. */
export const ref = (name: string): TableRef => ({ name });

/** A base table by SQL name or display name (404 otherwise; SQL views answer 400). */
export function tableOf(pdb: ProjectDb, tn: string): TableModel {
  const t = pdb.table(tn);
  if (!t) throw notFound(`Table '${tn}' not found`);
  if (t.type === 'view') throw badRequest(`'${t._tn}' is a SQL view; its columns cannot be changed here`);
  return t;
}

/** A column by SQL name or display name (404 otherwise). */
export function columnOf(t: TableModel, cn: string): ColumnModel {
  const c = t.columns.find((x) => x.cn === cn) ?? t.columns.find((x) => x._cn === cn);
  if (!c) throw notFound(`Column '${cn}' not found in '${t._tn}'`);
  return c;
}

/** Checks a new SQL name of a table or column. */
export function checkSqlName(name: string, what: 'table' | 'column'): string {
  const n = name.trim();
  if (!n) throw badRequest(`A ${what} name is required`);
  if (n.length > LIMITS.sqlNameMax) throw badRequest(`A ${what} name is at most ${LIMITS.sqlNameMax} characters`);
  if (/[\u0000-\u001f]/.test(n)) throw badRequest(`A ${what} name cannot hold control characters`);
  if (what === 'table' && isInternalTable(n)) throw badRequest(`Table names starting with nc_ or xc_, and _evolutions, are reserved`);
  return n;
}

/** 409 unless no table of the database has this SQL name. */
export async function assertNoTable(ctx: PlanContext, name: string): Promise<void> {
  const taken = ctx.pdb.model.tables.some((t) => t.tn.toLowerCase() === name.toLowerCase());
  if (taken) throw conflict(`A table named '${name}' already exists`);
}

/** SQLite: the table as the catalogue holds it; other engines need none. */
export async function shapeOf(ctx: PlanContext, tn: string): Promise<TableShape | undefined> {
  return ctx.engine === 'sqlite' ? readSqliteTableShape(ctx.db.driver, tn) : undefined;
}

/** Whether a replayed index or trigger statement mentions a column (by its quoted name). */
export const mentions = (sql: string, cn: string) => sql.includes(`"${cn}"`) || new RegExp(`[(,\\s]${cn.replace(/\W/g, '\\$&')}[\\s,)]`).test(sql);

/** A constraint name of at most 60 characters (MySQL and PostgreSQL limits). */
export const constraintName = (prefix: string, ...parts: string[]) => `${prefix}_${parts.join('_')}`.replace(/[^\w]/g, '_').slice(0, 60);
