/**
 * A streaming XLSX writer: one sheet of rows, written as SpreadsheetML into fflate's streaming ZIP,
 * deflated as it is pushed (level 1: three times as fast as level 6 for a quarter more bytes), so
 * each page of rows leaves as compressed bytes at once and nothing piles up. Numbers and booleans
 * are typed cells, dates are Excel dates with a date format, text is inline; the header row is
 * bold and frozen. exceljs's streaming writer held the whole sheet in memory behind its styles
 * part (see docs/features/import.md), hence this one.
 */
import { Zip, ZipDeflate, strToU8 } from 'fflate';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A cell: text, number, boolean, a date (`date`: day only), or nothing. */
export type XlsxValue = string | number | boolean | { date: Date; time: boolean } | null;

/** Style indexes of styles.xml below. */
const STYLE = { date: 1, datetime: 2, header: 3 } as const;

const STYLES = `${HEAD}<styleSheet xmlns="${NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** Text as XML: escaped, without the characters XML cannot hold, at most Excel's 32,767 characters. */
export function xmlText(s: string): string {
  return s
    .slice(0, 32_767)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** The letters of the n-th column (0: A, 26: AA). */
export function columnLetters(n: number): string {
  let s = '';
  for (let i = n + 1; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** Excel's serial number of a moment (days since 1899-12-30, UTC). */
const serial = (d: Date) => d.getTime() / 86_400_000 + 25_569;

function cell(ref: string, v: XlsxValue, header = false): string {
  if (v === null || v === '') return '';
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : '';
  if (typeof v === 'boolean') return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
  if (typeof v === 'object') return `<c r="${ref}" s="${v.time ? STYLE.datetime : STYLE.date}"><v>${serial(v.date)}</v></c>`;
  return `<c r="${ref}" t="inlineStr"${header ? ` s="${STYLE.header}"` : ''}><is><t xml:space="preserve">${xmlText(v)}</t></is></c>`;
}

/** Writes a workbook of one sheet to `write` as it goes: the header, then `addRows` as often as needed, then `end`. */
export class XlsxWriter {
  private readonly zip: Zip;
  private readonly sheet: ZipDeflate;
  private letters: string[];
  private row = 0;

  constructor(sheetName: string, headers: string[], write: (chunk: Uint8Array, final: boolean) => void, onError: (e: Error) => void) {
    this.zip = new Zip((err, chunk, final) => (err ? onError(err) : write(chunk, final)));
    const name = xmlText(sheetName.replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet1');
    const part = (path: string, text: string) => {
      const f = new ZipDeflate(path, { level: 6 });
      this.zip.add(f);
      f.push(strToU8(text), true);
    };
    part('[Content_Types].xml', `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`);
    part('_rels/.rels', `${HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
    part('xl/workbook.xml', `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    part('xl/_rels/workbook.xml.rels', `${HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`);
    part('xl/styles.xml', STYLES);
    this.sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 1 });
    this.zip.add(this.sheet);
    this.letters = headers.map((_, i) => columnLetters(i));
    const cols = headers.map((h, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(40, Math.max(10, h.length + 2))}" customWidth="1"/>`).join('');
    const frozen = '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    this.sheet.push(strToU8(`${HEAD}<worksheet xmlns="${NS}">${frozen}${headers.length ? `<cols>${cols}</cols>` : ''}<sheetData>`));
    this.push([headers], true);
  }

  private push(rows: XlsxValue[][], header = false): void {
    let xml = '';
    for (const r of rows) {
      const n = ++this.row;
      xml += `<row r="${n}">`;
      for (let i = 0; i < r.length; i++) xml += cell(`${this.letters[i] ?? columnLetters(i)}${n}`, r[i]!, header);
      xml += '</row>';
    }
    this.sheet.push(strToU8(xml));
  }

  /** Appends rows (values in header order). */
  addRows(rows: XlsxValue[][]): void {
    this.push(rows);
  }

  /** Closes the sheet and the ZIP (its last bytes go to `write` with final = true). */
  end(): void {
    this.sheet.push(strToU8('</sheetData></worksheet>'), true);
    this.zip.end();
  }
}
