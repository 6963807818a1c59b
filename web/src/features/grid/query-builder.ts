/** Filters and sorts built in the UI, turned into the where language and the sort parameter. */
export interface FilterRow {
  column: string;
  op: string;
  value: string;
}
export interface SortRow {
  column: string;
  desc: boolean;
}

export const FILTER_OPS: { op: string; label: string; needsValue: boolean }[] = [
  { op: 'eq', label: 'is equal', needsValue: true },
  { op: 'neq', label: 'is not equal', needsValue: true },
  { op: 'like', label: 'contains', needsValue: true },
  { op: 'nlike', label: 'does not contain', needsValue: true },
  { op: 'gt', label: '>', needsValue: true },
  { op: 'ge', label: '>=', needsValue: true },
  { op: 'lt', label: '<', needsValue: true },
  { op: 'le', label: '<=', needsValue: true },
  { op: 'blank', label: 'is blank', needsValue: false },
  { op: 'notblank', label: 'is not blank', needsValue: false },
  { op: 'checked', label: 'is checked', needsValue: false },
  { op: 'notchecked', label: 'is not checked', needsValue: false },
];

/** `[{Name, like, rock}]` -> `(Name,like,%rock%)`; a search over the display column is ANDed in. */
export function toWhere(filters: FilterRow[], search?: { column: string | null; text: string }): string {
  const terms = filters
    .filter((f) => f.column && f.op && (!FILTER_OPS.find((o) => o.op === f.op)?.needsValue || f.value !== ''))
    .map((f) => {
      const needs = FILTER_OPS.find((o) => o.op === f.op)?.needsValue;
      const value = f.op === 'like' || f.op === 'nlike' ? `%${f.value}%` : f.value;
      return needs ? `(${f.column},${f.op},${value})` : `(${f.column},${f.op})`;
    });
  if (search?.column && search.text.trim()) terms.push(`(${search.column},like,%${search.text.trim()}%)`);
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
    if (like && !(raw.startsWith('%') && raw.endsWith('%'))) return null;
    rows.push({ column: m[1]!, op: op.op, value: like ? raw.slice(1, -1) : raw });
  }
  return rows;
}

export const toSort = (sorts: SortRow[]) => sorts.filter((s) => s.column).map((s) => `${s.desc ? '-' : ''}${s.column}`).join(',');
