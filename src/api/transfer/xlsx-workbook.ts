/**
 * The structure of an XLSX workbook, read from its ZIP with fflate without reading its sheets: the
 * sheets (name, id, relationship) of `xl/workbook.xml` and the relationships of
 * `xl/_rels/workbook.xml.rels` (targets made relative to `xl/`, as exceljs matches them). A file
 * that is no ZIP, or a ZIP without a workbook, answers 400.
 */
import { createReadStream } from 'node:fs';
import { Unzip, UnzipInflate } from 'fflate';
import { badRequest } from '../../lib/errors';

export interface WorkbookSheet {
  name: string;
  id: number;
  rId: string;
  state: string;
}

export interface WorkbookStructure {
  sheets: WorkbookSheet[];
  /** Dates count from 1904 (old Mac workbooks) instead of 1900. */
  date1904: boolean;
  rels: { Id: string; Target: string; Type: string }[];
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : (XML_ENTITIES[e] ?? m),
  );

/** The attributes of each `<tag ...>` element of an XML text (any namespace prefix). */
function elements(xml: string, tag: string): Record<string, string>[] {
  return [...xml.matchAll(new RegExp(`<(?:\\w+:)?${tag}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w:]+)="([^"]*)"/g)].map((a) => [a[1]!.replace(/^\w+:/, (p) => (p === 'r:' ? 'r:' : '')), unescapeXml(a[2]!)])),
  );
}

/** The text of the named entries of a ZIP file (reading stops once all are found). */
function readEntries(path: string, names: string[]): Promise<Map<string, string>> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  const found = new Map<string, string>();
  return new Promise((resolve, reject) => {
    const uz = new Unzip();
    uz.register(UnzipInflate);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(found);
    };
    const fail = (msg: string) => {
      if (done) return;
      done = true;
      stream.destroy();
      reject(badRequest(msg));
    };
    uz.onfile = (f) => {
      if (!names.includes(f.name)) return;
      const parts: Uint8Array[] = [];
      f.ondata = (err, chunk, final) => {
        if (err) return fail('The XLSX file is damaged: its workbook cannot be read');
        parts.push(chunk);
        if (!final) return;
        found.set(f.name, Buffer.concat(parts).toString('utf8'));
        if (found.size === names.length) finish();
      };
      f.start();
    };
    stream.on('data', (c) => {
      try {
        uz.push(c as Buffer);
      } catch {
        fail('The XLSX file is damaged: it is not a valid ZIP archive');
      }
    });
    stream.on('end', () => {
      // The last entry may need the end of the archive to be known.
      try {
        uz.push(new Uint8Array(0), true);
      } catch {
        return fail('The XLSX file is damaged: it is not a valid ZIP archive');
      }
      finish();
    });
    stream.on('error', (e) => fail(`The file could not be read: ${e.message}`));
  });
}

/** Reads the workbook's sheets and relationships, or 400. */
export async function xlsxWorkbook(path: string): Promise<WorkbookStructure> {
  const parts = await readEntries(path, ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']);
  const book = parts.get('xl/workbook.xml');
  if (book === undefined) throw badRequest('The file is a ZIP archive but not an XLSX workbook (no xl/workbook.xml)');
  const sheets = elements(book, 'sheet').map((a) => ({ name: a.name ?? '', id: Number(a.sheetId), rId: a['r:id'] ?? a.id ?? '', state: a.state ?? 'visible' }));
  if (sheets.length === 0) throw badRequest('The workbook has no sheet');
  const rels = elements(parts.get('xl/_rels/workbook.xml.rels') ?? '', 'Relationship').map((a) => ({
    Id: a.Id ?? '',
    Type: a.Type ?? '',
    Target: (a.Target ?? '').replace(/^\/?xl\//, '').replace(/^\//, ''),
  }));
  const pr = elements(book, 'workbookPr')[0];
  return { sheets, rels, date1904: pr?.date1904 === '1' || pr?.date1904 === 'true' };
}
