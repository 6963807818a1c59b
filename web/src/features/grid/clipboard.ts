/**
 * Ranges of cells to and from the clipboard as spreadsheets do: TSV (cells by tabs, rows by line
 * breaks, a cell holding a tab, a line break or a quote written in quotes with quotes doubled) plus an
 * HTML table, which Excel and Google Sheets both paste; and the plan of a paste: which cells of which
 * rows get which values, which values do not fit their column, and how many rows must be added.
 */
import type { ColumnMeta } from '../../api/dashboard';
import { parseInput } from './grid-cell';
import { localeTag, t } from '../../i18n';
import { pastedNumber } from './pasted-number';

/** A rectangle of cells: first and last row and column, inclusive. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** The range spanned by two corners in any order. */
export const rangeOf = (a: { row: number; col: number }, b: { row: number; col: number }): CellRange => ({
  top: Math.min(a.row, b.row),
  bottom: Math.max(a.row, b.row),
  left: Math.min(a.col, b.col),
  right: Math.max(a.col, b.col),
});

export const inRange = (r: CellRange | null, row: number, col: number) => !!r && row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;

/** A value as text in a cell of the clipboard (a JSON column's as its JSON text, so a JSON string keeps its quotes). */
export function cellText(v: unknown, c?: Pick<ColumnMeta, 'kind'>): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' || c?.kind === 'json') return JSON.stringify(v);
  return String(v);
}

const quoteTsv = (s: string) => (/[\t\n\r"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Rows of cell texts as TSV. */
export function toTsv(rows: string[][]): string {
  return rows.map((r) => r.map(quoteTsv).join('\t')).join('\r\n');
}

/** Rows of cell texts as an HTML table. */
export function toHtml(rows: string[][]): string {
  return `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</table>`;
}

/** TSV (as Excel and Google Sheets put it on the clipboard) back into rows of cell texts. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') {
        quoted = false;
        i++;
        continue;
      }
      cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (ch === '\t') {
      row.push(cell);
      cell = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += ch;
      i++;
    }
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A value that does not fit: where and why. */
export interface PasteProblem {
  row: number;
  column: string;
  value: string;
  reason: string;
}

/** What a paste changes: per target row index its new values, the rows to add, and what was refused. */
export interface PastePlan {
  updates: { index: number; values: Record<string, unknown> }[];
  inserts: Record<string, unknown>[];
  problems: PasteProblem[];
  /** Rows past the last one that were not added: the role may not add rows. */
  notAdded: number;
}

/** Whether the caller may add rows, and which columns they may set on one (the add-row rights). */
export interface PasteAdding {
  may: boolean;
  settable: (c: ColumnMeta) => boolean;
}

const TRUE = new Set(['true', 'yes', '1', 'x', '✓', 'checked']);
const FALSE = new Set(['false', 'no', '0', '', 'unchecked']);

/** Converts a pasted text to a column's type, or says why it does not fit; numbers as `locale` writes them or plainly. */
export function convertPasted(c: ColumnMeta, text: string, locale: string = localeTag()): { value: unknown } | { reason: string } {
  const s = text.trim();
  if (s === '') return c.nullable || c.kind === 'string' ? { value: c.kind === 'string' && !c.nullable ? '' : null } : { reason: t('grid.paste.required') };
  // A duration as its format shows it ('1:30') or as seconds: the API reads both.
  if (c.uidt === 'Duration') return { value: s };
  // An amount or a percentage as a spreadsheet shows it ('$1,234.50', '12,5 %'): the number without its sign.
  const number = c.uidt === 'Currency' ? s.replace(/\p{Sc}/gu, '') : c.uidt === 'Percent' ? s.replace(/\s*%$/, '') : s;
  switch (c.kind) {
    case 'integer':
    case 'bigint': {
      const n = pastedNumber(number, locale);
      return n !== null && /^[+-]?\d+$/.test(n) ? { value: c.kind === 'bigint' ? n : Number(n) } : { reason: t('grid.paste.notWhole') };
    }
    case 'decimal':
    case 'float': {
      const n = pastedNumber(number, locale);
      return n !== null ? { value: c.kind === 'decimal' ? n : Number(n) } : { reason: t('grid.paste.notNumber') };
    }
    case 'boolean':
      return TRUE.has(s.toLowerCase()) ? { value: true } : FALSE.has(s.toLowerCase()) ? { value: false } : { reason: t('grid.paste.notCheckbox') };
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)) ? { value: s } : { reason: t('grid.paste.notDate') };
    case 'json':
      // As the API reads it (the paste writes it back as JSON text).
      try {
        return { value: JSON.parse(s) };
      } catch {
        return { reason: t('grid.paste.notJson') };
      }
    default:
      return { value: parseInput(c, text) };
  }
}

/**
 * The plan of pasting `cells` with its top-left at (row, col): `columns` are the grid's columns in
 * order, `writable` tells which may be written, `size` is how many rows the grid has (rows past it
 * are added when `adding.may`, with the columns `adding.settable` allows; otherwise they are counted
 * in `notAdded`), `rowAt` the loaded row of an index (its id is taken by the caller).
 */
export function planPaste(cells: string[][], at: { row: number; col: number }, columns: ColumnMeta[], writable: (c: ColumnMeta) => boolean, size: number, adding: PasteAdding = { may: true, settable: writable }): PastePlan {
  const plan: PastePlan = { updates: [], inserts: [], problems: [], notAdded: 0 };
  cells.forEach((line, r) => {
    const index = at.row + r;
    const isNew = index >= size;
    if (isNew && !adding.may) {
      if (line.some((text) => text.trim() !== '')) plan.notAdded++;
      return;
    }
    const values: Record<string, unknown> = {};
    line.forEach((text, k) => {
      const c = columns[at.col + k];
      if (!c) {
        if (text !== '') plan.problems.push({ row: index + 1, column: t('grid.paste.columnNumber', { number: String(at.col + k + 1) }), value: text, reason: t('grid.paste.beyond') });
        return;
      }
      if (isNew ? !adding.settable(c) : !writable(c)) {
        plan.problems.push({ row: index + 1, column: c._cn, value: text, reason: isNew ? t('grid.paste.notOnNew') : t('grid.paste.locked') });
        return;
      }
      const v = convertPasted(c, text);
      if ('reason' in v) plan.problems.push({ row: index + 1, column: c._cn, value: text, reason: v.reason });
      else values[c._cn] = v.value;
    });
    if (!Object.keys(values).length) return;
    if (!isNew) plan.updates.push({ index, values });
    else plan.inserts.push(values);
  });
  return plan;
}
