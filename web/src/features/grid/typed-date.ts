/**
 * A date typed as text in a cell, read as 'YYYY-MM-DD': in the grid's own order (2024-03-05,
 * 2024/3/5), in the language's order of day, month and year (12/25/2025 in English, 25/12/2025 in
 * French) or as those digits alone (12252025). Text that is no real date is given back as typed: the
 * server refuses it, saying what it expects.
 */

/** The order of day, month and year in a language's short dates ('mdy' in English, 'dmy' in French). */
export function dateOrder(locale: string): string {
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2001, 10, 22));
  return parts.map((p) => (p.type === 'year' ? 'y' : p.type === 'month' ? 'm' : p.type === 'day' ? 'd' : '')).join('');
}

/** 'YYYY-MM-DD' of a year, month and day that exist together, else null. */
function isoOf(y: string, m: string, d: string): string | null {
  const [year, month, day] = [Number(y), Number(m), Number(d)];
  if (y.length !== 4 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) return null;
  return `${y}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The parts of a date in `order` ('mdy') from three pieces written in that order. */
function inOrder(order: string, pieces: string[]): string | null {
  const at = (k: string) => pieces[order.indexOf(k)] ?? '';
  return isoOf(at('y'), at('m'), at('d'));
}

export function typedDate(text: string, locale: string): string {
  const s = text.trim();
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (iso) return isoOf(iso[1]!, iso[2]!, iso[3]!) ?? text;
  const order = dateOrder(locale);
  const local = /^(\d{1,4})[-/.\s](\d{1,2})[-/.\s](\d{1,4})$/.exec(s);
  if (local) return inOrder(order, [local[1]!, local[2]!, local[3]!]) ?? text;
  // Digits alone, as the segments of the date field take them: two for the day and the month, four for the year.
  if (/^\d{8}$/.test(s)) {
    const pieces: string[] = [];
    let i = 0;
    for (const k of order) {
      const n = k === 'y' ? 4 : 2;
      pieces.push(s.slice(i, i + n));
      i += n;
    }
    return inOrder(order, pieces) ?? text;
  }
  return text;
}
