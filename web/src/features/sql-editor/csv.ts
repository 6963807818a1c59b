import { formulaSafe, isNumericType } from '../../lib/csv-formula';

/**
 * A result as CSV (RFC 4180: fields with commas, quotes or line breaks are quoted). Text a
 * spreadsheet would run as a formula gets an apostrophe, as in the server's exports; headers too.
 */
export function toCsv(columns: { name: string; type?: string }[], rows: unknown[][]): string {
  const numeric = columns.map((c) => isNumericType(c.type));
  const field = (v: unknown, isNumber: boolean): string => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'object' ? JSON.stringify(v) : typeof v === 'string' ? formulaSafe(v, isNumber) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [columns.map((c) => field(c.name, false)).join(',')];
  for (const r of rows) lines.push(r.map((v, i) => field(v, numeric[i] ?? false)).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Offers text as a file download. */
export function download(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
