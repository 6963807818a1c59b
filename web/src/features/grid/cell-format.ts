/**
 * How the grid writes values by logical type and its options: currency with its code
 * (Intl.NumberFormat), percent with %, decimals to their precision, durations as h:mm, and the
 * reverse for the duration editor. Pure functions, shared by cells and forms.
 */
import type { ColumnMeta, SelectChoice, VirtualMeta } from '../../api/dashboard';
import { t } from '../../i18n';

/** A value as a number, or null when it is none. */
function numberOf(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** 1234.5 in EUR -> '€1,234.50' (in the column's locale, or the browser's; to `precision` places when set). */
export function formatCurrency(v: unknown, code = 'USD', locale?: string, precision?: number): string {
  const n = numberOf(v);
  if (n === null) return v == null ? '' : String(v);
  const places = precision === undefined ? {} : { minimumFractionDigits: precision, maximumFractionDigits: precision };
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code, ...places }).format(n);
  } catch {
    return `${code} ${n}`;
  }
}

/** 42.5 -> '42.5%' (a Percent holds the percentage itself), to `precision` places when set. */
export function formatPercent(v: unknown, precision?: number): string {
  const n = numberOf(v);
  if (n === null) return v == null ? '' : String(v);
  return `${precision === undefined ? String(n) : n.toFixed(precision)}%`;
}

/** A decimal to its `precision` places. */
export function formatDecimal(v: unknown, precision?: number): string {
  const n = numberOf(v);
  if (n === null || precision === undefined) return v == null ? '' : String(v);
  return n.toFixed(precision);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Seconds in the column's format: 5400 -> '1:30' (h:mm), '1:30:00' (h:mm:ss), '1:30:00.0' (h:mm:ss.s). */
export function formatDuration(v: unknown, format: string = 'h:mm'): string {
  const n = numberOf(v);
  if (n === null) return v == null ? '' : String(v);
  const sign = n < 0 ? '-' : '';
  const tenths = Math.round(Math.abs(n) * 10);
  const total = Math.floor(tenths / 10);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (format === 'h:mm') {
    const minutes = Math.round(Math.abs(n) / 60);
    return `${sign}${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
  }
  if (format === 'h:mm:ss') return `${sign}${h}:${pad(m)}:${pad(s)}`;
  return `${sign}${h}:${pad(m)}:${pad(s)}.${tenths % 10}`;
}

/** The text of a typed value in the grid (currency, percent, decimal, duration), or null for other types. */
export function formatTyped(c: ColumnMeta & { virtual?: VirtualMeta }, v: unknown): string | null {
  // A rollup or lookup of a typed column is shown as that column is.
  const shown = c.virtual?.shows;
  const meta = (shown ? shown.meta : c.meta) ?? {};
  switch (shown?.uidt ?? c.uidt) {
    case 'Currency':
      return formatCurrency(v, meta.currency, meta.locale, meta.precision);
    case 'Percent':
      return formatPercent(v, meta.precision);
    case 'Decimal':
      return formatDecimal(v, meta.precision);
    case 'Duration':
      return formatDuration(v, meta.format);
    default:
      return null;
  }
}

/** The chosen choices of a select value ('a,c' or ['a', 'c']) with their colours. */
export function chosen(c: ColumnMeta, v: unknown): SelectChoice[] {
  if (v === null || v === undefined || v === '') return [];
  const titles = c.uidt === 'MultiSelect' ? (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean) : [String(v)];
  const choices = c.meta?.options ?? [];
  return titles.map((title) => choices.find((o) => o.title === title) ?? { title, color: '#eeeeee' });
}

/** The files of an Attachment value: a name and, when it has one, a link. */
export function attachmentsOf(v: unknown): { name: string; href: string | null }[] {
  let list = v;
  if (typeof v === 'string') {
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.map((f: { url?: string; path?: string; title?: string; signedUrl?: string }) => {
    // A shared link's rows carry signedUrl, a short-lived link of this server, for uploaded files.
    const signed = typeof f?.signedUrl === 'string' && /^(\/(?!\/)|https:\/\/)/i.test(f.signedUrl) ? f.signedUrl : null;
    const href = signed ?? (typeof f?.url === 'string' && /^https?:\/\//i.test(f.url) ? f.url : null);
    const where = f?.url ?? f?.path ?? '';
    return { name: f?.title || where.split(/[/?#]/).filter(Boolean).pop() || where || t('grid.attachment.file'), href };
  });
}
