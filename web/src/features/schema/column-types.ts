/**
 * The logical column types the add/edit column form offers, with the options each one takes, and
 * the small pure helpers of the schema forms (SQL names from display names, option lists).
 */
import { LIMITS } from '../../lib/limits';
import type { ColumnInput } from '../../api/schema';
import { t, type MessageKey } from '../../i18n';

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

/** A type of the picker whose label and hint are read in the current language when shown. */
function type(uidt: string, labelKey: MessageKey, options: TypeOption[], more: { dtxp?: string; hintKey?: MessageKey } = {}): ColumnType {
  return {
    uidt,
    options,
    ...(more.dtxp ? { dtxp: more.dtxp } : {}),
    get label() {
      return t(labelKey);
    },
    get hint() {
      if (!more.hintKey) return undefined;
      return more.hintKey === 'schema.typeHint.attachment' ? t(more.hintKey, { example: '[{ "url": ..., "title": ... }]' }) : t(more.hintKey); // i18n-ignore
    },
  };
}

/** Every physical logical type, in the order of the type picker. */
export const COLUMN_TYPES: ColumnType[] = [
  type('SingleLineText', 'schema.type.singleLineText', ['length'], { dtxp: '255' }),
  type('LongText', 'schema.type.longText', []),
  type('Number', 'schema.type.number', []),
  type('Decimal', 'schema.type.decimal', ['precision'], { dtxp: '10,2' }),
  type('Currency', 'schema.type.currency', ['precision'], { dtxp: '12,2' }),
  type('Percent', 'schema.type.percent', ['precision'], { dtxp: '5,2' }),
  type('Rating', 'schema.type.rating', [], { hintKey: 'schema.typeHint.rating' }),
  type('Duration', 'schema.type.duration', [], { hintKey: 'schema.typeHint.duration' }),
  type('Checkbox', 'schema.type.checkbox', []),
  type('Date', 'schema.type.date', []),
  type('DateTime', 'schema.type.dateTime', []),
  type('Time', 'schema.type.time', []),
  type('Email', 'schema.type.email', ['length'], { dtxp: '255', hintKey: 'schema.typeHint.email' }),
  type('URL', 'schema.type.url', [], { hintKey: 'schema.typeHint.url' }),
  type('PhoneNumber', 'schema.type.phoneNumber', ['length'], { dtxp: '32', hintKey: 'schema.typeHint.phoneNumber' }),
  type('SingleSelect', 'schema.type.singleSelect', ['choices'], { hintKey: 'schema.typeHint.singleSelect' }),
  type('MultiSelect', 'schema.type.multiSelect', ['choices'], { hintKey: 'schema.typeHint.multiSelect' }),
  type('JSON', 'schema.type.json', []),
  type('Attachment', 'schema.type.attachment', [], { hintKey: 'schema.typeHint.attachment' }),
];

/** A kind of column that is not a database column of its own, labelled in the current language. */
const virtualType = <U extends string>(uidt: U, labelKey: MessageKey) => ({
  uidt,
  get label() {
    return t(labelKey);
  },
});

/** The kinds of column that are not a database column of their own. */
export const VIRTUAL_TYPES = [
  virtualType('Links', 'schema.type.links'),
  virtualType('Formula', 'schema.type.formula'),
  virtualType('Rollup', 'schema.type.rollup'),
  virtualType('Lookup', 'schema.type.lookup'),
] as const;

/** The aggregates a rollup can compute over related rows. */
export const ROLLUP_FNS = ['count', 'countDistinct', 'sum', 'avg', 'min', 'max'] as const;
export type RollupFn = (typeof ROLLUP_FNS)[number];

/** The name of a rollup aggregate in the current language. */
export function rollupLabel(fn: RollupFn): string {
  switch (fn) {
    case 'count':
      return t('schema.rollup.count');
    case 'countDistinct':
      return t('schema.rollup.countDistinct');
    case 'sum':
      return t('schema.rollup.sum');
    case 'avg':
      return t('schema.rollup.avg');
    case 'min':
      return t('schema.rollup.min');
    case 'max':
      return t('schema.rollup.max');
  }
}

/** The picker's entry of a logical type (undefined for types it does not offer). */
export const typeOf = (uidt: string): ColumnType | undefined => COLUMN_TYPES.find((c) => c.uidt === uidt);

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

/** Which name a SQL name problem speaks of. */
export type NameLabel = 'Name' | 'SQL name' | 'Column name' | 'Table name';

/** Why a SQL name cannot be used, or null (`label` says which name, in the message's language). */
export function sqlNameProblem(name: string, label: NameLabel = 'Name'): string | null {
  const max = LIMITS.sqlNameMax;
  if (!name.trim()) {
    if (label === 'SQL name') return t('schema.problem.sqlNameRequired');
    if (label === 'Column name') return t('schema.problem.columnNameRequired');
    if (label === 'Table name') return t('schema.problem.tableNameRequired');
    return t('schema.problem.nameRequired');
  }
  if (name.length > max) {
    if (label === 'SQL name') return t('schema.problem.sqlNameTooLong', { max });
    if (label === 'Column name') return t('schema.problem.columnNameTooLong', { max });
    if (label === 'Table name') return t('schema.problem.tableNameTooLong', { max });
    return t('schema.problem.nameTooLong', { max });
  }
  return null;
}

/** The select choices typed one per line (or comma separated), trimmed, without blanks or repeats. */
export function parseChoices(text: string): string[] {
  return [...new Set(text.split(/[\n,]/).map((s) => s.trim()).filter(Boolean))];
}

/** Why a length or "precision,scale" cannot be used, or null. */
export function dtxpProblem(option: TypeOption, value: string): string | null {
  if (!value.trim()) return null;
  if (option === 'length') return /^\d+$/.test(value.trim()) && Number(value) > 0 ? null : t('schema.problem.length');
  if (option === 'precision') {
    const m = /^\s*(\d+)\s*(?:,\s*(\d+)\s*)?$/.exec(value);
    if (!m) return t('schema.problem.precision');
    if (m[2] !== undefined && Number(m[2]) > Number(m[1])) return t('schema.problem.scale');
  }
  return null;
}

/** The columns a new table starts with (what the server creates when no columns are given): updated_at is set on each change. */
export const DEFAULT_COLUMNS: ColumnInput[] = [
  { cn: 'id', uidt: 'Number', pk: true, ai: true, nullable: false },
  { cn: 'title', uidt: 'SingleLineText' },
  { cn: 'created_at', uidt: 'DateTime', default: 'now' },
  { cn: 'updated_at', uidt: 'DateTime', default: 'now', meta: { touch: true } },
];

/** Why the column list cannot be used, or null. */
export function columnsProblem(columns: ColumnInput[]): string | null {
  if (!columns.length) return t('schema.problem.noColumns');
  for (const c of columns) {
    const p = sqlNameProblem(c.cn, 'Column name');
    if (p) return p;
  }
  const names = columns.map((c) => c.cn.toLowerCase());
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) return t('schema.problem.columnTwice', { name: dup });
  return null;
}
