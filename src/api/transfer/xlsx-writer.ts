/**
 * A streaming XLSX writer: one sheet of rows, written as SpreadsheetML into fflate's streaming ZIP,
 * deflated as it is pushed (level 1: three times as fast as level 6 for a quarter more bytes), so
 * each page of rows leaves as compressed bytes at once and nothing piles up. Numbers and booleans
 * are typed cells shown in their column's number format (a currency, a percent, a date), dates are
 * Excel dates, text is inline; the header row is bold and frozen. exceljs's streaming writer held
 * the whole sheet in memory behind its styles part (see docs/features/import.md), hence this one.
 */
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A cell: text, number, boolean, a moment (an Excel date: its column's format says how it shows), or nothing. */
export type XlsxValue = string | number | boolean | Date | null;

/** A column: its header and the number format of its numbers and dates (Excel's format code: `"$"#,##0.00`, `0.0%`, `yyyy-mm-dd`). */
export interface XlsxColumn {
  header: string;
  numFmt?: string;
}

/** The format of a moment in a column without one. */
const MOMENT_FORMAT = 'yyyy-mm-dd hh:mm:ss';
/** Style indexes of styles.xml: the plain cell, the header; each number format's come after. */
const PLAIN = 0;
const HEADER = 1;

/** styles.xml with one cell style per number format (`formats[i]` is style HEADER + 1 + i). */
function stylesXml(formats: string[]): string {
  const numFmts = formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xmlText(f)}"/>`).join('');
  const xfs = formats.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('');
  return `${HEAD}<styleSheet xmlns="${NS}">${formats.length ? `<numFmts count="${formats.length}">${numFmts}</numFmts>` : ''}<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${2 + formats.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>${xfs}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
}

/** Text as XML: escaped (a carriage return too, which XML readers would take for a line end), without the characters XML cannot hold, at most Excel's 32,767 characters. */
export function xmlText(s: string): string {
  return s
    .slice(0, 32_767)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#13;'));
}

/** The letters of the n-th column (0: A, 26: AA). */
export function columnLetters(n: number): string {
  let s = '';
  for (let i = n + 1; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** Excel's serial number of a moment (days since 1899-12-30, UTC). */
const serial = (d: Date) => d.getTime() / 86_400_000 + 25_569;

/** A cell; `style`: its column's number format style (numbers and dates), `moment`: the style of a date in a column without one. */
function cell(ref: string, v: XlsxValue, style: number, moment: number): string {
  if (v === null || v === '') return '';
  const s = style === PLAIN ? '' : ` s="${style}"`;
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"${s}><v>${v}</v></c>` : '';
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : `<c r="${ref}" s="${style === PLAIN ? moment : style}"><v>${serial(v)}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(v)}</t></is></c>`;
}

/** The header's cell: bold text. */
const headerCell = (ref: string, text: string) => (text === '' ? '' : `<c r="${ref}" t="inlineStr" s="${HEADER}"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`);

/** Writes a workbook of one sheet to `write` as it goes: the header, then `addRows` as often as needed, then `end`. */
export class XlsxWriter {
  private readonly zip: Zip;
  private readonly sheet: ZipDeflate;
  private readonly letters: string[];
  /** Each column's style (its number format's, or PLAIN). */
  private readonly styles: number[];
  /** The style of a moment in a column without a format. */
  private readonly moment: number;
  private row = 0;

  constructor(sheetName: string, columns: XlsxColumn[], write: (chunk: Uint8Array, final: boolean) => void, onError: (e: Error) => void) {
    this.zip = new Zip((err, chunk, final) => (err ? onError(err) : write(chunk, final)));
    const name = xmlText(sheetName.replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet1');
    const part = (path: string, text: string) => {
      const f = new ZipDeflate(path, { level: 6 });
      this.zip.add(f);
      f.push(strToU8(text), true);
    };
    const formats = [...new Set([...columns.flatMap((c) => (c.numFmt ? [c.numFmt] : [])), MOMENT_FORMAT])];
    const styleOf = (f: string | undefined) => (f ? HEADER + 1 + formats.indexOf(f) : PLAIN);
    this.styles = columns.map((c) => styleOf(c.numFmt));
    this.moment = styleOf(MOMENT_FORMAT);
    part('[Content_Types].xml', `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`);
    part('_rels/.rels', `${HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    part('xl/workbook.xml', `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    part('xl/_rels/workbook.xml.rels', `${HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`);
    part('xl/styles.xml', stylesXml(formats));
    this.sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 1 });
    this.zip.add(this.sheet);
    this.letters = columns.map((_, i) => columnLetters(i));
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(40, Math.max(c.numFmt ? 14 : 10, c.header.length + 2))}" customWidth="1"/>`).join('');
    const frozen = '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    this.sheet.push(strToU8(`${HEAD}<worksheet xmlns="${NS}">${frozen}${columns.length ? `<cols>${cols}</cols>` : ''}<sheetData>`));
    this.sheet.push(strToU8(`<row r="${++this.row}">${columns.map((c, i) => headerCell(`${this.letters[i]}1`, c.header)).join('')}</row>`));
  }

  /** Appends rows (values in column order). */
  addRows(rows: XlsxValue[][]): void {
    let xml = '';
    for (const r of rows) {
      const n = ++this.row;
      xml += `<row r="${n}">`;
      for (let i = 0; i < r.length; i++) xml += cell(`${this.letters[i] ?? columnLetters(i)}${n}`, r[i]!, this.styles[i] ?? PLAIN, this.moment);
      xml += '</row>';
    }
    this.sheet.push(strToU8(xml));
  }

  /** Closes the sheet and the ZIP (its last bytes go to `write` with final = true). */
  end(): void {
    this.sheet.push(strToU8('</sheetData></worksheet>'), true);
    this.zip.end();
  }
}
