/**
 * The logical column types the add/edit column form offers, with the options each one takes, and
 * the small pure helpers of the schema forms (SQL names from display names, option lists).
 */
import { LIMITS } from '../../lib/limits';
import type { ColumnInput } from '../../api/schema';

/** Which type options a logical type shows in the column form. */
export type TypeOption = 'length' | 'precision' | 'choices';

/** A logical type of the picker: its label, options, proposed size and write checks. */
export interface ColumnType {
  uidt: string;
  label: string;
  options: TypeOption[];
  /** The length or "precision,scale" proposed for a new column. */
  dtxp?: string;
  /** What the server checks on writes, shown under the type. */
  hint?: string;
}

/** Every physical logical type, in the order of the type picker. */
export const COLUMN_TYPES: ColumnType[] = [
  { uidt: 'SingleLineText', label: 'Single line text', options: ['length'], dtxp: '255' },
  { uidt: 'LongText', label: 'Long text', options: [] },
  { uidt: 'Number', label: 'Number', options: [] },
  { uidt: 'Decimal', label: 'Decimal', options: ['precision'], dtxp: '10,2' },
  { uidt: 'Currency', label: 'Currency', options: ['precision'], dtxp: '12,2' },
  { uidt: 'Percent', label: 'Percent', options: ['precision'], dtxp: '5,2' },
  { uidt: 'Rating', label: 'Rating', options: [], hint: 'Whole numbers from 0 to the maximum rating.' },
  { uidt: 'Duration', label: 'Duration', options: [], hint: 'Kept as seconds; type 1:30 for an hour and a half.' },
  { uidt: 'Checkbox', label: 'Checkbox', options: [] },
  { uidt: 'Date', label: 'Date', options: [] },
  { uidt: 'DateTime', label: 'Date and time', options: [] },
  { uidt: 'Time', label: 'Time', options: [] },
  { uidt: 'Email', label: 'Email', options: ['length'], dtxp: '255', hint: 'Values must be email addresses.' },
  { uidt: 'URL', label: 'URL', options: [], hint: 'Values must be URLs.' },
  { uidt: 'PhoneNumber', label: 'Phone number', options: ['length'], dtxp: '32', hint: 'Values must be phone numbers.' },
  { uidt: 'SingleSelect', label: 'Single select', options: ['choices'], hint: 'Values must be one of the options.' },
  { uidt: 'MultiSelect', label: 'Multi select', options: ['choices'], hint: 'Values are some of the options, separated by commas.' },
  { uidt: 'JSON', label: 'JSON', options: [] },
  { uidt: 'Attachment', label: 'Attachment', options: [], hint: 'A list of files: [{ "url": ..., "title": ... }].' },
];

/** The kinds of column that are not a database column of their own. */
export const VIRTUAL_TYPES = [
  { uidt: 'Links', label: 'Link to another record' },
  { uidt: 'Formula', label: 'Formula' },
  { uidt: 'Rollup', label: 'Rollup' },
  { uidt: 'Lookup', label: 'Lookup' },
] as const;

/** The aggregates a rollup can compute over related rows. */
export const ROLLUP_FNS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;

/** The picker's entry of a logical type (undefined for types it does not offer). */
export const typeOf = (uidt: string): ColumnType | undefined => COLUMN_TYPES.find((t) => t.uidt === uidt);

/** 'Unit Price (€)' -> 'unit_price': a SQL name proposed for a display name. */
export function sqlNameFor(display: string): string {
  const name = display
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, LIMITS.sqlNameMax);
  return /^[0-9]/.test(name) ? `c_${name}`.slice(0, LIMITS.sqlNameMax) : name;
}

/** Why a SQL name cannot be used, or null. */
export function sqlNameProblem(name: string, label = 'Name'): string | null {
  if (!name.trim()) return `${label} is required`;
  if (name.length > LIMITS.sqlNameMax) return `${label} is longer than ${LIMITS.sqlNameMax} characters`;
  return null;
}

/** The select choices typed one per line (or comma separated), trimmed, without blanks or repeats. */
export function parseChoices(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

/** Why a length or "precision,scale" cannot be used, or null. */
export function dtxpProblem(option: TypeOption, value: string): string | null {
  if (!value.trim()) return null;
  if (option === 'length') return /^\d+$/.test(value.trim()) && Number(value) > 0 ? null : 'Length must be a positive whole number';
  if (option === 'precision') {
    const m = /^\s*(\d+)\s*(?:,\s*(\d+)\s*)?$/.exec(value);
    if (!m) return 'Precision must read like 10,2';
    if (m[2] !== undefined && Number(m[2]) > Number(m[1])) return 'The scale cannot exceed the precision';
  }
  return null;
}

/** The columns a new table starts with (what the server creates when no columns are given). */
export const DEFAULT_COLUMNS: ColumnInput[] = [
  { cn: 'id', uidt: 'Number', pk: true, ai: true, nullable: false },
  { cn: 'title', uidt: 'SingleLineText' },
  { cn: 'created_at', uidt: 'DateTime', default: 'now' },
  { cn: 'updated_at', uidt: 'DateTime', default: 'now' },
];

/** Why the column list cannot be used, or null. */
export function columnsProblem(columns: ColumnInput[]): string | null {
  if (!columns.length) return 'A table needs at least one column';
  for (const c of columns) {
    const p = sqlNameProblem(c.cn, 'Column name');
    if (p) return p;
  }
  const names = columns.map((c) => c.cn.toLowerCase());
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) return `The column name '${dup}' is used twice`;
  return null;
}
