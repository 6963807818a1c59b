/**
 * The SQL Client's Format: sql-formatter on the editor's text, except that MySQL's `DELIMITER x`
 * lines (which the formatter does not know: it joined them to the statement before and wrote
 * `DELIMITER;`, so the script no longer ran) are kept as they are, and the statements between them
 * are formatted one by one, each ended again by the delimiter in force.
 */
import { format, type FormatOptionsWithLanguage } from 'sql-formatter';

const DELIMITER_LINE = /^\s*delimiter\s+(\S+)\s*$/i;

/** The text formatted; `language` and the other options are sql-formatter's. */
export function formatScript(text: string, options: FormatOptionsWithLanguage, mysql: boolean): string {
  const lines = text.split('\n');
  if (!mysql || !lines.some((l) => DELIMITER_LINE.test(l))) return format(text, options);
  const out: string[] = [];
  let delimiter = ';';
  let block: string[] = [];
  const flush = () => {
    const sql = block.join('\n');
    block = [];
    if (!sql.trim()) return;
    if (delimiter === ';') return void out.push(format(sql, options));
    // Statements ended by the custom delimiter (their bodies may hold semicolons).
    const parts = sql.split(delimiter).map((s) => s.trim());
    const last = parts.pop()!;
    out.push(...parts.map((s) => (s ? format(s, options) : '') + delimiter));
    if (last) out.push(format(last, options));
  };
  for (const line of lines) {
    const m = DELIMITER_LINE.exec(line);
    if (!m) {
      block.push(line);
      continue;
    }
    flush();
    out.push(line.trim());
    delimiter = m[1]!;
  }
  flush();
  return out.join('\n');
}
