/**
 * A form view's settings: the default form of a table, the fields it shows (columns that still
 * exist, in the form's order), checking required fields, turning typed text into a row, telling a
 * row that answers nothing, and which redirect addresses are followed. Pure (unit tested).
 */
import type { ColumnMeta } from '../../api/dashboard';
import type { FormField, FormSpec } from '../../api/views';
import { parseInput } from '../grid/grid-cell';
import { t } from '../../i18n';

/** The message shown after a submission when the form sets none, in the current language. */
export const defaultSubmitMessage = (): string => t('views.form.defaultSubmitMessage');
/** The default message in the language of the page when it loaded (the interface calls defaultSubmitMessage). */
export const DEFAULT_SUBMIT_MESSAGE = defaultSubmitMessage();

/** Columns a form can ask for: not generated keys, not hidden. */
export const formableColumns = (cols: ColumnMeta[]) => cols.filter((c) => !c.hidden && !c.ai && c.uidt !== 'ID');

/** The form of a view (or the default one: every column it can ask for, required where the column needs a value). */
export function formSpecOf(spec: FormSpec | undefined, cols: ColumnMeta[], title: string): FormSpec {
  const fields = () => formableColumns(cols).map((c) => ({ cn: c._cn, required: !c.nullable && (c.default === null || c.default === undefined) }));
  if (spec) return { heading: spec.heading ?? '', subheading: spec.subheading ?? '', submitMessage: spec.submitMessage ?? '', redirectUrl: spec.redirectUrl, fields: spec.fields ?? fields() };
  return { heading: title, subheading: '', submitMessage: defaultSubmitMessage(), fields: fields() };
}

/** The form's fields with their columns, in the form's order (fields whose column is gone are left out). */
export function formFields(spec: FormSpec, cols: ColumnMeta[]): { field: FormField; column: ColumnMeta }[] {
  const byName = new Map(cols.flatMap((c) => [[c._cn, c], [c.cn, c]] as [string, ColumnMeta][]));
  return spec.fields.flatMap((field) => {
    const column = byName.get(field.cn);
    return column ? [{ field, column }] : [];
  });
}

/** The label of a field. */
export const labelOf = (f: FormField, c: ColumnMeta) => (f.label?.trim() ? f.label.trim() : c._cn);

/** Errors of required fields left empty, by column name. */
export function missingRequired(spec: FormSpec, cols: ColumnMeta[], values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field, column } of formFields(spec, cols)) {
    const v = values[column._cn] ?? '';
    if (field.required && (v.trim() === '' || (column.kind === 'boolean' && v !== 'true'))) out[column._cn] = t('views.form.fieldRequired', { label: labelOf(field, column) });
  }
  return out;
}

/** The row a submission creates: only the form's fields that were filled in. */
export function rowOf(spec: FormSpec, cols: ColumnMeta[], values: Record<string, string>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const { column } of formFields(spec, cols)) {
    const v = values[column._cn] ?? '';
    if (column.kind === 'boolean') {
      if (v !== '') row[column._cn] = v === 'true';
    } else if (v !== '') row[column._cn] = parseInput(column, v);
  }
  return row;
}

/**
 * Whether a submission answers nothing: every value is empty (blank text, no files) or an unticked
 * checkbox, as the shared form's route judges it. A form sets no values of its own (no defaults, no
 * hidden answers), so such a row would be an empty one.
 */
export function nothingFilled(row: Record<string, unknown>): boolean {
  return Object.values(row).every((v) => v === null || v === undefined || v === false || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0));
}

/** A redirect address the form follows: only http(s) addresses (never script or data URLs). */
export function safeRedirect(url: string | undefined): string | null {
  const u = (url ?? '').trim();
  if (!u) return null;
  try {
    const parsed = new URL(u);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
