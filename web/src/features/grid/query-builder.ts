/** Filters and sorts built in the UI, turned into the where language and the sort parameter. */
import { t } from '../../i18n';
import { containedText, containsPattern } from '../../lib/like-pattern';

export interface FilterRow {
  column: string;
  op: string;
  value: string;
}
export interface SortRow {
  column: string;
  desc: boolean;
}

/** An operator of the builders; its label is read in the current language each time it is shown. */
export interface FilterOp {
  op: string;
  readonly label: string;
  needsValue: boolean;
}
const filterOp = (op: string, needsValue: boolean, label: () => string): FilterOp => ({ op, needsValue, get label() { return label(); } });

export const FILTER_OPS: FilterOp[] = [
  filterOp('eq', true, () => t('grid.filter.eq')),
  filterOp('neq', true, () => t('grid.filter.neq')),
  filterOp('like', true, () => t('grid.filter.like')),
  filterOp('nlike', true, () => t('grid.filter.nlike')),
  filterOp('gt', true, () => '>'),
  filterOp('ge', true, () => '>='),
  filterOp('lt', true, () => '<'),
  filterOp('le', true, () => '<='),
  filterOp('blank', false, () => t('grid.filter.blank')),
  filterOp('notblank', false, () => t('grid.filter.notBlank')),
  filterOp('checked', false, () => t('grid.filter.checked')),
  filterOp('notchecked', false, () => t('grid.filter.notChecked')),
];

const CHECKBOX_OPS = new Set(['eq', 'neq', 'blank', 'notblank', 'checked', 'notchecked']);
const ORDER_OPS = new Set(['gt', 'ge', 'lt', 'le']);

/**
 * The operators offered for a column: 'is checked' only for checkboxes, and checkboxes have no order
 * or pattern; a select's choices have no order either (the server refuses it too).
 */
export const opsFor = (column: { kind?: string; uidt?: string } | undefined): FilterOp[] => {
  if (column?.kind === 'boolean') return FILTER_OPS.filter((o) => CHECKBOX_OPS.has(o.op));
  const select = column?.uidt === 'SingleSelect' || column?.uidt === 'MultiSelect';
  return FILTER_OPS.filter((o) => o.op !== 'checked' && o.op !== 'notchecked' && !(select && ORDER_OPS.has(o.op)));
};

/** `[{Name, like, rock}]` -> `(Name,like,%rock%)` (the text's own `%` and `_` literal); a search over the display column is ANDed in. */
export function toWhere(filters: FilterRow[], search?: { column: string | null; text: string }): string {
  const terms = filters
    .filter((f) => f.column && f.op && (!FILTER_OPS.find((o) => o.op === f.op)?.needsValue || f.value !== ''))
    .map((f) => {
      const needs = FILTER_OPS.find((o) => o.op === f.op)?.needsValue;
      const value = f.op === 'like' || f.op === 'nlike' ? containsPattern(f.value) : f.value;
      return needs ? `(${f.column},${f.op},${value})` : `(${f.column},${f.op})`;
    });
  if (search?.column && search.text.trim()) terms.push(`(${search.column},like,${containsPattern(search.text.trim())})`);
  return terms.join('~and');
}

/** `(a,eq,1)~and(b,like,%x%)` back into builder rows; null when the text needs the raw editor. */
export function fromWhere(where: string): FilterRow[] | null {
  if (!where.trim()) return [];
  const rows: FilterRow[] = [];
  for (const part of where.trim().split('~and')) {
    const m = /^\(([^,()]+),([a-z]+)(?:,(.*))?\)$/.exec(part.trim());
    const op = m && FILTER_OPS.find((o) => o.op === m[2]);
    if (!m || !op || (op.needsValue && m[3] === undefined) || m[3]?.includes(')~')) return null;
    const raw = m[3] ?? '';
    const like = op.op === 'like' || op.op === 'nlike';
    const text = like ? containedText(raw) : raw;
    if (text === null) return null;
    rows.push({ column: m[1]!, op: op.op, value: text });
  }
  return rows;
}

export const toSort = (sorts: SortRow[]) => sorts.filter((s) => s.column).map((s) => `${s.desc ? '-' : ''}${s.column}`).join(',');
