/** A result as CSV (RFC 4180: fields with commas, quotes or line breaks are quoted). */
export function toCsv(columns: { name: string }[], rows: unknown[][]): string {
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return '';
    const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [columns.map((c) => field(c.name)).join(',')];
  for (const r of rows) lines.push(r.map(field).join(','));
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
