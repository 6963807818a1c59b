/**
 * A column as the schema-change operations receive it (`ColumnInput`), and how it becomes DDL:
 * the native type of its logical type per engine (with `dtxp` length or precision), its default,
 * and the logical type that metadata keeps when the native type cannot tell it (Email, Currency...).
 */
import type { Engine } from '../sql/dialect';
import type { ColumnDef } from '../sql/ddl';
import { ENGINES } from '../sql/engines';
import { lookupNative, nativeFor } from '../sql/type-map';
import type { ColumnModel, UiType } from './model';

/** The logical types a column can be created with or changed to. */
export const DDL_UITYPES = [
  'ID', 'SingleLineText', 'LongText', 'Number', 'Decimal', 'Currency', 'Percent', 'Rating', 'Duration', 'Checkbox',
  'Date', 'DateTime', 'Time', 'Email', 'URL', 'PhoneNumber', 'SingleSelect', 'MultiSelect', 'JSON', 'Attachment',
] as const satisfies readonly UiType[];

/** One of DDL_UITYPES. */
export type DdlUiType = (typeof DDL_UITYPES)[number];

/** A default as a caller gives it ('now' on a DateTime means the current time). */
export type DefaultInput = string | number | boolean | null;

/** A new column: SQL name, display name, logical type and constraints. */
export interface ColumnInput {
  cn: string;
  _cn?: string;
  uidt: DdlUiType;
  /** Length (`255`) or precision and scale (`10,2`). */
  dtxp?: string;
  nullable?: boolean;
  default?: DefaultInput;
  unique?: boolean;
  pk?: boolean;
  ai?: boolean;
  /** Choices of SingleSelect / MultiSelect. */
  options?: string[];
  /** Options of the logical type (see column-type-meta.ts), checked by the planner for `uidt`. */
  meta?: Record<string, unknown>;
}

/** Types whose native type takes a length or a precision. */
const SIZED = /^(varchar|nvarchar|character varying|char|decimal|numeric)\b/i;

/** The native type of a logical type on an engine, sized by `dtxp` where the type takes a size. */
export function nativeTypeOf(engine: Engine, uidt: UiType, dtxp?: string): string {
  const base = nativeFor(ENGINES[engine].types, uidt);
  if (!dtxp || !SIZED.test(base)) return base;
  return `${base.replace(/\(.*\)$/, '')}(${dtxp})`;
}

const isTimeType = (uidt: UiType) => uidt === 'DateTime';

/** The DDL default of an input default: 'now' on a DateTime is the current time. */
export function defaultOf(uidt: UiType, d: DefaultInput | undefined): ColumnDef['default'] {
  if (d === undefined) return undefined;
  if (typeof d === 'string' && isTimeType(uidt) && /^(now|current_timestamp)(\(\))?$/i.test(d.trim())) return { now: true };
  if (uidt === 'Checkbox' && (d === 'true' || d === 'false')) return d === 'true';
  return d;
}

/** The DDL column of an input. */
export function columnDefOf(engine: Engine, c: ColumnInput): ColumnDef {
  const ai = c.uidt === 'ID' || !!c.ai;
  return {
    name: c.cn,
    type: nativeTypeOf(engine, c.uidt === 'ID' ? 'Number' : c.uidt, c.dtxp),
    nullable: ai || c.pk ? false : c.nullable,
    default: ai ? undefined : defaultOf(c.uidt, c.default),
    pk: ai || !!c.pk,
    ai,
    unique: c.unique || undefined,
  };
}

/** The DDL column of a column as introspection read it (to recreate it as it was). */
export function columnDefOfModel(c: ColumnModel): ColumnDef {
  return {
    name: c.cn,
    type: c.dtx ?? c.dt,
    nullable: c.nullable,
    ...(c.default !== null && !c.ai ? { dangerousDefaultSql: c.default } : {}),
    pk: c.pk,
    pkOrder: c.pkOrder,
    ai: c.ai,
    unique: c.unique,
  };
}

/** What metadata keeps of a column's type: the logical type when the native one reads otherwise, and choices. */
export function typeMetaOf(engine: Engine, native: string, uidt: UiType, options?: string[]): { uidt?: UiType; options?: string[] } {
  const read = lookupNative(ENGINES[engine].types, native).uidt;
  return {
    ...(read !== uidt && uidt !== 'ID' ? { uidt } : {}),
    ...((uidt === 'SingleSelect' || uidt === 'MultiSelect') && options?.length ? { options } : {}),
  };
}

const SYNONYMS: [RegExp, string][] = [
  [/character varying/g, 'varchar'],
  [/\bcharacter\b/g, 'char'],
  [/ without time zone/g, ''],
  [/\b((tiny|small|medium|big)?int)\(\d+\)/g, '$1'],
  [/\binteger\b/g, 'int'],
];

/** Whether two spellings name the same native type (`character varying(255)` = `varchar(255)`, `bigint(20)` = `bigint`). */
export function sameNativeType(a: string, b: string): boolean {
  const norm = (t: string) => SYNONYMS.reduce((s, [re, to]) => s.replace(re, to), t.toLowerCase().trim()).replace(/\s+/g, ' ');
  return norm(a) === norm(b);
}
