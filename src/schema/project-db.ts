/**
 * One open database of a project (project, env, dbAlias) with its schema model: what data/,
 * REST, GraphQL and the dashboard receive. Built and cached by the project registry.
 */
import type { Database } from '../sql/dialect';
import type { SchemaModel, TableModel } from './model';

export interface ProjectDb {
  projectId: string;
  env: string;
  dbAlias: string;
  db: Database;
  model: SchemaModel;
  /** A table or SQL view by API alias or SQL name (alias wins); undefined when unknown. */
  table(name: string): TableModel | undefined;
}

/** Wraps an open database and its model with name lookup. */
export function makeProjectDb(projectId: string, env: string, dbAlias: string, db: Database, model: SchemaModel): ProjectDb {
  const byAlias = new Map<string, TableModel>();
  const byName = new Map<string, TableModel>();
  for (const t of model.tables) {
    byAlias.set(t._tn, t);
    byName.set(t.tn, t);
  }
  return {
    projectId,
    env,
    dbAlias,
    db,
    model,
    table: (name) => byAlias.get(name) ?? byName.get(name),
  };
}
