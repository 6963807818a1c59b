/**
 * The `_evolutions` table of a project database: the schema changes applied to it, one row each
 * (id, title, time). Created when missing; introspection never shows it.
 */
import type { Engine } from './dialect';
import type { Compiled } from './ast';
import { col, eq, val } from './ast';
import { ENGINES } from './engines';

/** The table name (hidden from lists like nc_ tables). */
export const EVOLUTIONS_TABLE = '_evolutions';

/** The statement that creates `_evolutions` unless it exists. */
export function createEvolutionsSql(engine: Engine): string {
  const q = (n: string) => ENGINES[engine].compiler.quoteId(n);
  const body = `${q(EVOLUTIONS_TABLE)} (${q('id')} varchar(64) NOT NULL PRIMARY KEY, ${q('title')} varchar(255) NOT NULL, ${q('applied_at')} varchar(32) NOT NULL)`;
  if (engine === 'mssql') return `IF OBJECT_ID(N'${EVOLUTIONS_TABLE}', N'U') IS NULL CREATE TABLE ${body}`;
  return `CREATE TABLE IF NOT EXISTS ${body}`;
}

/** Records an applied change. */
export function insertEvolution(engine: Engine, id: string, title: string): Compiled {
  return ENGINES[engine].compiler.compile({
    kind: 'insert',
    table: { name: EVOLUTIONS_TABLE },
    columns: ['id', 'title', 'applied_at'],
    rows: [[val(id), val(title.slice(0, 255)), val(new Date().toISOString())]],
  });
}

/** Forgets a change that was rolled back. */
export function deleteEvolution(engine: Engine, id: string): Compiled {
  return ENGINES[engine].compiler.compile({ kind: 'delete', table: { name: EVOLUTIONS_TABLE }, where: eq(col('id'), val(id)) });
}
