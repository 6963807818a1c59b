/**
 * The model of a project database: what introspection produces, what metadata refines
 * (display names, hidden columns, virtual columns) and what data/, REST and GraphQL read.
 */
import type { Expr } from './ast';

/** Logical UI types (product spec); the type map turns native types into these and back. */
export type UiType =
  | 'ID' | 'SingleLineText' | 'LongText' | 'Number' | 'Decimal' | 'Float' | 'Currency' | 'Percent'
  | 'Rating' | 'Duration' | 'Checkbox' | 'Date' | 'DateTime' | 'Time' | 'Year' | 'Email' | 'URL'
  | 'PhoneNumber' | 'SingleSelect' | 'MultiSelect' | 'JSON' | 'Attachment' | 'Binary'
  | 'SpecificDBType'
  // virtual
  | 'Formula' | 'Rollup' | 'Lookup' | 'LinkToAnotherRecord';

/** How values of a column travel as JSON and compare in filters. */
export type ValueKind = 'string' | 'integer' | 'bigint' | 'decimal' | 'float' | 'boolean' | 'date' | 'datetime' | 'time' | 'json' | 'binary';

export interface ColumnModel {
  /** SQL name. */
  cn: string;
  /** API / display alias (inflection of cn, or renamed by the user). */
  _cn: string;
  /** Native type as the engine reports it (e.g. 'character varying', 'int(11)'). */
  dt: string;
  /** Full native type with length/precision for DDL (e.g. 'varchar(255)'). */
  dtx?: string;
  uidt: UiType;
  kind: ValueKind;
  pk: boolean;
  /** Position in a composite primary key (0-based), when pk. */
  pkOrder?: number;
  ai: boolean;
  nullable: boolean;
  /** Default as SQL text read from the catalogue, or null. */
  default: string | null;
  length?: number | null;
  precision?: number | null;
  scale?: number | null;
  enumValues?: string[];
  unique?: boolean;
  /** Options of the logical type (currency, precision, rating maximum...), from user metadata. */
  meta?: ColumnTypeMeta;
  /** User metadata. */
  hidden?: boolean;
  order?: number;
  /** Set on the read-only columns data/ makes of virtual columns (never on introspected ones). */
  virtual?: VirtualColumnModel;
}

/** A choice of a select with its colour (`#rrggbb`). */
export interface SelectChoice {
  title: string;
  color: string;
}

/** Formats a Duration column shows its seconds in (and accepts as text). */
export type DurationFormat = 'h:mm' | 'h:mm:ss' | 'h:mm:ss.s';

/**
 * Options of a logical type, kept in user metadata: Currency `currency`/`locale`, Percent and
 * Decimal `precision` (decimal places shown), Rating `max`/`icon`, Duration `format`, selects
 * `options` with colours, Attachment `maxFiles`/`accept`, DateTime `touch`.
 */
export interface ColumnTypeMeta {
  currency?: string;
  locale?: string;
  precision?: number;
  max?: number;
  icon?: string;
  format?: DurationFormat;
  options?: SelectChoice[];
  maxFiles?: number;
  accept?: string[];
  /** DateTime: every update of a row sets the column to the time of the change (unless the update sets it). */
  touch?: boolean;
}

export type RelationType = 'hm' | 'bt' | 'mm';

export interface RelationModel {
  type: RelationType;
  /** The table that holds this relation in its model. */
  tn: string;
  /** The other table. */
  rtn: string;
  /** Alias of the relation as exposed by the API (`{Child}List`, `{Parent}Read`, `{Target}MMList`). */
  alias: string;
  /** For hm/bt: the foreign key columns on the child, and the referenced columns on the parent. */
  childTable: string;
  childColumns: string[];
  parentTable: string;
  parentColumns: string[];
  /** For mm: the junction table and its columns pointing at this table and at the target. */
  junction?: {
    tn: string;
    /** junction columns -> this table's referenced columns */
    columns: string[];
    refColumns: string[];
    /** junction columns -> target table's referenced columns */
    targetColumns: string[];
    targetRefColumns: string[];
  };
  /** Constraint name where known. */
  fkName?: string;
}

export interface TableModel {
  /** SQL name. */
  tn: string;
  /** Display / API alias. */
  _tn: string;
  /** Schema (PostgreSQL/SQL Server) the table lives in. */
  schema?: string;
  type: 'table' | 'view';
  columns: ColumnModel[];
  /** Primary key column names in key order; empty when the table has none. */
  pks: string[];
  /** SQL name of the display column (first text-like column after the key). */
  displayColumn: string | null;
  relations: RelationModel[];
  /** True for junction tables of many-to-many relations (hidden unless includeM2M). */
  isJunction?: boolean;
  /** User metadata. */
  hidden?: boolean;
  /** Why a view cannot be read (a table or column it uses is gone): it has no columns and answers 400. */
  broken?: string;
  /** Virtual columns (formula, rollup, lookup): kept in metadata, computed in SQL by data/. */
  virtuals?: VirtualColumnModel[];
}

/** A column that exists only in metadata and is computed in the list query. */
export interface VirtualColumnModel {
  /** API / display alias; rows carry the computed value under it. */
  _cn: string;
  uidt: 'Formula' | 'Rollup' | 'Lookup';
  /**
   * Formula text as the user sees it (columns named by alias in braces), and why it is invalid,
   * if it is; `expr` is the stored canonical text (columns by SQL name).
   */
  formula?: { text: string; error?: string; expr?: string };
  /** Aggregate of a column of has-many or many-to-many children, by relation alias; `column` is the child column's alias. */
  rollup?: { relation: string; column: string; fn: 'count' | 'min' | 'max' | 'avg' | 'sum' | 'countDistinct'; type?: RelationType; rtn?: string };
  /**
   * A column of the related row(s), by relation alias; `column` is the related column's alias.
   * Over belongs-to it is that row's value; over has-many or many-to-many the related values as
   * one text, sorted, joined by ', '.
   */
  lookup?: { relation: string; column: string; type?: RelationType; rtn?: string };
  /** Why a rollup or lookup no longer works (formulas say it in `formula.error`). */
  error?: string;
  /** Type of the computed value, for editors and API types. */
  type?: 'string' | 'number' | 'boolean' | 'date';
  /** How the value travels as JSON and compares in filters. */
  kind?: ValueKind;
  /** note: in memory only. The SQL of the value, with this table known as `table` (default: its SQL name). */
  expr?: (table?: string) => Expr;
}

export interface RoutineModel {
  name: string;
  kind: 'function' | 'procedure' | 'sequence';
  definition: string | null;
}

export interface SchemaModel {
  tables: TableModel[];
  functions: RoutineModel[];
  procedures: RoutineModel[];
  sequences: RoutineModel[];
}
