/**
 * JSON text indented for reading without being parsed into JavaScript values: numbers stay as the
 * server wrote them (JSON.parse would turn 9007199254740993 into 9007199254740992 and 1.50 into
 * 1.5), strings keep their escapes. Pure, so it is unit tested.
 */

/** JSON's four whitespace characters. */
const space = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

/** `text` (valid JSON) re-indented by `indent` spaces, laid out like JSON.stringify(value, null, indent). */
export function prettyJson(text: string, indent = 2): string {
  let out = '';
  let depth = 0;
  const newline = () => '\n' + ' '.repeat(depth * indent);
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      // A string, copied as written up to its closing quote.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '{' || c === '[') {
      // An empty object or array stays on one line.
      let j = i + 1;
      while (space(text[j])) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out += c + text[j];
        i = j;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') out += ',' + newline();
    else if (c === ':') out += ': ';
    else if (!space(c)) out += c;
  }
  return out;
}
