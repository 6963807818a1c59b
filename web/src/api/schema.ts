/**
 * Schema-change calls (tables, columns, relations, virtual columns) and the migrations of a
 * database. Every change can be asked for with `preview: true` first, which answers the SQL
 * statements it would run and changes nothing.
 */
import { dashboardOp } from './projects';
import type { TableMeta } from './dashboard';

/** A column as the schema-change operations take it. */
export interface ColumnInput {
  cn: string;
  _cn?: string;
  uidt: string;
  /** Length, or "precision,scale". */
  dtxp?: string;
  nullable?: boolean;
  default?: string | null;
  unique?: boolean;
  pk?: boolean;
  ai?: boolean;
  /** The choices of SingleSelect / MultiSelect. */
  options?: string[];
  /** Options of the logical type (currency, precision, rating max, duration format, choices with colours, file limits). */
  meta?: Record<string, unknown>;
}

/** A virtual column as virtualColumnCreate / virtualColumnUpdate take it. */
export interface VirtualInput {
  _cn: string;
  uidt: 'Formula' | 'Rollup' | 'Lookup';
  formula?: string;
  rollup?: { relation: string; column: string; fn: string };
  lookup?: { relation: string; column: string };
}

/** One recorded schema change of a database. */
export interface Migration {
  id: string | number;
  title: string;
  up: string[];
  down: string[];
  status: 'pending' | 'applied' | 'failed';
  createdAt: string;
  appliedAt: string | null;
  error?: string | null;
}

/** What a schema change answers once it ran. */
export interface ChangeResult {
  statements: string[];
  migration?: { id: string | number; title: string; status: string };
  table?: TableMeta;
}

/** The operations that change the schema and accept `preview: true`. */
export type SchemaOp =
  | 'tableCreate'
  | 'tableRename'
  | 'tableDelete'
  | 'columnAdd'
  | 'columnUpdate'
  | 'columnDelete'
  | 'relationCreate'
  | 'relationDelete';

/** The operations on virtual columns (metadata only: they run no SQL on the database). */
export type VirtualOp = 'virtualColumnCreate' | 'virtualColumnUpdate' | 'virtualColumnDelete';

/** A formula function as the suggestions list shows it. */
export interface FormulaFunction {
  name: string;
  syntax: string;
  description: string;
  example: string;
}

/** The answer of formulaValidate (always status 200). */
/** `position`: 0-based offset in the formula text of the first problem, when known. */
export type FormulaCheck = { ok: true; type: string } | { ok: false; msg: string; position?: number };

/** Where a change applies: the project and one of its databases. */
export interface DbScope {
  projectId: string;
  dbAlias: string;
}

/** The schema-change, formula and migration calls of one project database. */
export const schemaApi = {
  /** The statements a change would run, and the values it would alter or drop (`losses`), without running it. */
  preview: (scope: DbScope, op: SchemaOp, args: Record<string, unknown>) =>
    dashboardOp<{ statements: string[]; losses?: string[] }>(op, { ...scope, plus: true, args: { ...args, preview: true } }),
  /** Runs a change (recorded as a migration). */
  run: (scope: DbScope, op: SchemaOp, args: Record<string, unknown>) => dashboardOp<ChangeResult>(op, { ...scope, plus: true, args }),
  /** Creates, changes or removes a virtual column; answers the table's new metadata. */
  virtual: (scope: DbScope, op: VirtualOp, args: Record<string, unknown>) => dashboardOp<TableMeta>(op, { ...scope, plus: true, args }),
  /** Sets the display order of a table's columns (SQL names). */
  reorder: (scope: DbScope, tn: string, order: string[]) => dashboardOp('columnReorder', { ...scope, args: { tn, order } }),
  /** Checks formula text; `editing` names the virtual column being edited (using itself is a cycle). */
  formulaValidate: (scope: DbScope, tn: string, formula: string, editing?: string) =>
    dashboardOp<FormulaCheck>('formulaValidate', { ...scope, args: { tn, formula, ...(editing ? { _cn: editing } : {}) } }),
  formulaFunctions: async (scope: DbScope) => (await dashboardOp<{ list: FormulaFunction[] }>('formulaFunctions', scope)).list,
  migrations: async (scope: DbScope) => (await dashboardOp<{ list: Migration[] }>('migrationList', scope)).list,
  apply: (scope: DbScope, target: { id: string | number } | { all: true }) => dashboardOp('migrationApply', { ...scope, args: target }),
  rollback: (scope: DbScope, target: { id: string | number } | { all: true }) => dashboardOp('migrationRollback', { ...scope, args: target }),
};
