/**
 * The add/edit column form's state, and how it turns into the calls' arguments: a ColumnInput for
 * a database column, the changed fields only for an edit, a virtual column, or a relation.
 */
import type { ColumnMeta, TableMeta, VirtualMeta } from '../../api/dashboard';
import type { ColumnInput, VirtualInput } from '../../api/schema';
import type { SelectChoice } from '../../api/dashboard';
import { dtxpProblem, sqlNameFor, sqlNameProblem, typeOf } from './column-types';
import { t } from '../../i18n';
import { choicesOf, cleanChoices, newTypeMeta, typeMetaDraftOf, typeMetaInput, typeMetaProblem, type TypeMetaDraft } from './type-meta-draft';

/** What the column form holds while the user edits it. */
export interface ColumnDraft {
  name: string;
  /** The SQL name; follows the name until edited. */
  cn: string;
  cnTouched: boolean;
  uidt: string;
  dtxp: string;
  /** Select choices with their colours. */
  choices: SelectChoice[];
  /** The type's options (currency, decimal places, rating maximum, duration format, file limits). */
  meta: TypeMetaDraft;
  nullable: boolean;
  default: string;
  unique: boolean;
  formula: string;
  relation: string;
  column: string;
  fn: string;
  linkType: 'hm' | 'mm';
  /** The SQL name of the table to link, and its display name. */
  linkTable: string;
  linkTitle: string;
}

/** A fresh draft for a new column. */
export function newDraft(): ColumnDraft {
  return { name: '', cn: '', cnTouched: false, uidt: 'SingleLineText', dtxp: '255', choices: [], meta: newTypeMeta(), nullable: true, default: '', unique: false, formula: '', relation: '', column: '', fn: 'count', linkType: 'hm', linkTable: '', linkTitle: '' };
}

/** The draft of an existing database column. */
export function draftOf(c: ColumnMeta): ColumnDraft {
  return {
    ...newDraft(), name: c._cn, cn: c.cn, cnTouched: true, uidt: c.uidt, dtxp: c.dtxp ?? (c.length ? String(c.length) : ''),
    choices: choicesOf(c), meta: typeMetaDraftOf(c), nullable: c.nullable, default: c.default ?? '', unique: !!c.unique,
  };
}

/** The draft of an existing virtual column. */
export function draftOfVirtual(v: VirtualMeta): ColumnDraft {
  return {
    ...newDraft(), name: v._cn, uidt: v.uidt, formula: v.formula?.text ?? '',
    relation: v.rollup?.relation ?? v.lookup?.relation ?? '', column: v.rollup?.column ?? v.lookup?.column ?? '', fn: v.rollup?.fn ?? 'count',
  };
}

/** Sets the name; the SQL name follows it until the user edits it. */
export function withName(d: ColumnDraft, name: string): ColumnDraft {
  return { ...d, name, cn: d.cnTouched ? d.cn : sqlNameFor(name) };
}

/** Sets the type; its proposed length or precision replaces one the old type proposed. */
export function withType(d: ColumnDraft, uidt: string): ColumnDraft {
  const before = typeOf(d.uidt);
  const after = typeOf(uidt);
  const keep = d.dtxp && d.dtxp !== before?.dtxp && after?.options.some((o) => before?.options.includes(o));
  return { ...d, uidt, dtxp: keep ? d.dtxp : (after?.dtxp ?? '') };
}

/** Why the draft cannot be saved, or null. */
export function draftProblem(d: ColumnDraft, meta: TableMeta, editing: string | null): string | null {
  if (d.uidt !== 'Links' && !d.name.trim()) return t('schema.problem.columnNameRequired');
  const taken = [...meta.columns.map((c) => c._cn), ...(meta.virtuals ?? []).map((v) => v._cn)].filter((n) => n !== editing);
  if (d.uidt !== 'Links' && taken.some((n) => n.toLowerCase() === d.name.trim().toLowerCase())) return t('schema.problem.columnExists', { name: d.name.trim() });
  switch (d.uidt) {
    case 'Links':
      return d.linkTable ? null : t('schema.problem.linkTable');
    case 'Formula':
      return d.formula.trim() ? null : t('schema.problem.formula');
    case 'Rollup':
    case 'Lookup':
      return d.relation && d.column ? null : t('schema.problem.relationColumn');
  }
  const sql = sqlNameProblem(d.cn, 'SQL name');
  if (sql) return sql;
  const type = typeOf(d.uidt);
  for (const o of type?.options ?? []) {
    if (o === 'choices' && cleanChoices(d.choices).length === 0) return t('schema.problem.options');
    if (o !== 'choices') {
      const p = dtxpProblem(o, d.dtxp);
      if (p) return p;
    }
  }
  return typeMetaProblem(d.uidt, d.meta);
}

/** A new database column. */
export function columnInput(d: ColumnDraft): ColumnInput {
  const type = typeOf(d.uidt);
  const out: ColumnInput = { cn: d.cn.trim(), _cn: d.name.trim(), uidt: d.uidt, nullable: d.nullable, unique: d.unique };
  if (d.dtxp.trim() && type?.options.some((o) => o === 'length' || o === 'precision')) out.dtxp = d.dtxp.replace(/\s+/g, '');
  if (type?.options.includes('choices')) out.options = cleanChoices(d.choices).map((o) => o.title);
  const meta = typeMetaInput(d.uidt, d.meta, d.choices);
  if (meta && Object.keys(meta).length) out.meta = meta;
  if (d.default.trim()) out.default = d.default.trim();
  return out;
}

/** The fields of a database column that the draft changes (empty: nothing to do). */
export function columnChanges(before: ColumnDraft, d: ColumnDraft): Partial<ColumnInput> {
  const a = columnInput(before);
  const b = columnInput(d);
  const out: Partial<ColumnInput> = {};
  if (b.cn !== a.cn) out.cn = b.cn;
  if (b._cn !== a._cn) out._cn = b._cn;
  if (b.uidt !== a.uidt) out.uidt = b.uidt;
  if (b.dtxp && (b.dtxp !== a.dtxp || out.uidt)) out.dtxp = b.dtxp;
  if (b.nullable !== a.nullable) out.nullable = b.nullable;
  if ((b.default ?? null) !== (a.default ?? null)) out.default = b.default ?? null;
  if (b.unique !== a.unique) out.unique = b.unique;
  if (JSON.stringify(b.options ?? []) !== JSON.stringify(a.options ?? [])) out.options = b.options;
  if (b.meta && JSON.stringify(b.meta) !== JSON.stringify(a.meta ?? {})) out.meta = b.meta;
  return out;
}

/** A virtual column (Formula, Rollup or Lookup). */
export function virtualInput(d: ColumnDraft): VirtualInput {
  const _cn = d.name.trim();
  if (d.uidt === 'Formula') return { _cn, uidt: 'Formula', formula: d.formula };
  if (d.uidt === 'Rollup') return { _cn, uidt: 'Rollup', rollup: { relation: d.relation, column: d.column, fn: d.fn } };
  return { _cn, uidt: 'Lookup', lookup: { relation: d.relation, column: d.column } };
}

/** The display order after inserting `cn` at `index` (SQL names). */
export function orderWith(meta: TableMeta, cn: string, index: number): string[] {
  const order = meta.columns.map((c) => c.cn).filter((n) => n !== cn);
  order.splice(Math.max(0, Math.min(index, order.length)), 0, cn);
  return order;
}
