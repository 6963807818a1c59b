/**
 * Rewrites the column names of a where-language text (`(col,op,value)~and(...)`), term by term,
 * scanning it the way the where parser does: a `((` (or `(~not(`) opens a group, a term ends at the first `)`
 * followed by `~`, `)` or the end, and its column is the text before the first comma. Used to
 * store saved filters by SQL name and to follow renamed columns (the server), and to show and send the
 * API names of a view stored by SQL name (the web app); the text must parse first.
 */
export function mapWhereColumns(where: string, rename: (column: string) => string): string {
  let out = '';
  let i = 0;
  const s = where;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch !== '(' || s[i + 1] === '(' || s.startsWith('~not(', i + 1)) {
      out += ch;
      i++;
      continue;
    }
    // A term: find its end as the parser does.
    let end = -1;
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] !== ')') continue;
      const next = s[j + 1];
      if (next === undefined || next === '~' || next === ')') {
        end = j;
        break;
      }
    }
    if (end < 0) return out + s.slice(i);
    const body = s.slice(i + 1, end);
    const comma = body.indexOf(',');
    out += comma < 0 ? `(${body})` : `(${rename(body.slice(0, comma).trim())}${body.slice(comma)})`;
    i = end + 1;
  }
  return out;
}

/** The column names a where text uses, in order (the text must parse). */
export function whereColumns(where: string): string[] {
  const names: string[] = [];
  mapWhereColumns(where, (c) => {
    names.push(c);
    return c;
  });
  return names;
}

/** `(a)` AND `(b)` as one where text, each side grouped so its own OR stays inside it. */
export function andWhere(...parts: (string | undefined)[]): string | undefined {
  const items = parts.map((p) => p?.trim()).filter((p): p is string => !!p);
  if (items.length <= 1) return items[0];
  return items.map((p) => `(${p})`).join('~and');
}
