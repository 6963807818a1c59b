/**
 * Column names of a where-language text rewritten term by term, scanning it as the server's parser
 * does: `((` (or `(~not(`) opens a group, a term ends at the first `)` followed by `~`, `)` or the
 * end, and its column is the text before its first comma. Views are stored by SQL name; the web
 * app shows and sends the API names.
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
