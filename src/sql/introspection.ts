/**
 * What each engine's introspector reads from its catalogue, before it becomes a SchemaModel
 * (schema-model.ts adds aliases, relations, junctions and display columns).
 */
import type { Executor } from './dialect';

export interface RawTable {
  name: string;
  type: 'table' | 'view';
  /** Why a view cannot be read (a table or column it uses is gone); it then has no columns. */
  broken?: string;
}

export interface RawColumn {
  table: string;
  name: string;
  /** Base native type, e.g. 'character varying', 'int'. */
  type: string;
  /** Full native type, e.g. 'varchar(255)', 'int(11) unsigned'. */
  fullType: string;
  nullable: boolean;
  default: string | null;
  ai: boolean;
  length: number | null;
  precision: number | null;
  scale: number | null;
  enumValues?: string[];
  position: number;
}

export interface RawKeyColumn {
  table: string;
  column: string;
  position: number;
}

export interface RawForeignKey {
  name: string;
  table: string;
  column: string;
  refTable: string;
  refColumn: string;
  position: number;
}

export interface RawRoutine {
  name: string;
  definition: string | null;
}

export interface RawSchema {
  tables: RawTable[];
  columns: RawColumn[];
  pks: RawKeyColumn[];
  fks: RawForeignKey[];
  /** Columns carrying a single-column unique constraint or index. */
  uniques: RawKeyColumn[];
  functions: RawRoutine[];
  procedures: RawRoutine[];
  sequences: RawRoutine[];
}

export interface Introspector {
  read(exec: Executor, opts: { schema?: string }): Promise<RawSchema>;
}

/** Catalogue rows may come back with numbers as strings or bigints: normalise. */
export const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** `enum('a','b''c')` -> ['a', "b'c"]. */
export function parseEnumValues(columnType: string): string[] | undefined {
  const m = /^(?:enum|set)\((.*)\)$/i.exec(columnType.trim());
  if (!m) return undefined;
  const out: string[] = [];
  const re = /'((?:[^']|'')*)'/g;
  let x: RegExpExecArray | null;
  while ((x = re.exec(m[1]!))) out.push(x[1]!.replace(/''/g, "'"));
  return out;
}
