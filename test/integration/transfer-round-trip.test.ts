/**
 * Export and import back, on SQLite, PostgreSQL and MariaDB: a table with a column of every type
 * (awkward values too: quotes, commas, new lines, text that looks like a formula, negative and long
 * numbers, nulls) is exported as CSV and as XLSX and each file imported into an empty copy of the
 * table; the copies hold the same rows. The XLSX file, read with exceljs, shows amounts in their
 * currency, percentages as percents and dates and times as dates with a format.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import ExcelJS from 'exceljs';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';

/** A column of every type a table can be made with. */
const COLUMNS = [
  { cn: 'id', uidt: 'ID' },
  { cn: 'title', _cn: 'Title', uidt: 'SingleLineText' },
  { cn: 'notes', _cn: 'Notes', uidt: 'LongText' },
  { cn: 'qty', _cn: 'Qty', uidt: 'Number' },
  { cn: 'ratio', _cn: 'Ratio', uidt: 'Decimal', meta: { precision: 3 } },
  { cn: 'exact', _cn: 'Exact', uidt: 'Decimal', dtxp: '30,10' },
  { cn: 'price', _cn: 'Price', uidt: 'Currency', meta: { currency: 'EUR', locale: 'de-DE' } },
  { cn: 'fee', _cn: 'Fee', uidt: 'Currency' },
  { cn: 'share', _cn: 'Share', uidt: 'Percent', meta: { precision: 1 } },
  { cn: 'stars', _cn: 'Stars', uidt: 'Rating' },
  { cn: 'took', _cn: 'Took', uidt: 'Duration' },
  { cn: 'done', _cn: 'Done', uidt: 'Checkbox' },
  { cn: 'day', _cn: 'Day', uidt: 'Date' },
  { cn: 'at', _cn: 'At', uidt: 'DateTime' },
  { cn: 'starts', _cn: 'Starts', uidt: 'Time' },
  { cn: 'mail', _cn: 'Mail', uidt: 'Email' },
  { cn: 'site', _cn: 'Site', uidt: 'URL' },
  { cn: 'phone', _cn: 'Phone', uidt: 'PhoneNumber' },
  { cn: 'kind', _cn: 'Kind', uidt: 'SingleSelect', options: ['red', 'green'] },
  { cn: 'tags', _cn: 'Tags', uidt: 'MultiSelect', options: ['a', 'b', 'c'] },
  { cn: 'data', _cn: 'Data', uidt: 'JSON' },
];

const ROWS = [
  {
    Title: 'Plain', Notes: 'one line', Qty: 3, Ratio: '1.250', Exact: '12345678901234567890.1234567890', Price: '19.99', Fee: '5.00', Share: '42.5', Stars: 4, Took: 5400, Done: true,
    Day: '2024-02-29', At: '2024-03-01 13:45:30', Starts: '09:30:00', Mail: 'a@example.com', Site: 'https://example.com/a?b=1&c=2', Phone: '+33 1 23 45 67 89',
    Kind: 'red', Tags: 'a,c', Data: { n: 1, list: [1, 'two'], nested: { ok: true } },
  },
  {
    Title: 'Quote " comma, semi; =1+2', Notes: 'line one\nline two, "quoted"\r\nthird', Qty: -7, Ratio: '-0.005', Exact: '-0.0000000001', Price: '-1234567.89', Fee: '0.10', Share: '-3.3', Stars: 0, Took: 0, Done: false,
    Day: '1999-12-31', At: '2000-01-01 00:00:00', Starts: '23:59:59', Mail: 'b.c+d@example.org', Site: 'http://x.test/', Phone: '+1 (555) 010-9999',
    Kind: 'green', Tags: 'b', Data: ['=cmd', '@x', '-1'],
  },
  {
    Title: '=SUM(A1:A3) 客户 Año ümlaut 🙂', Notes: ' leading and trailing blanks ', Qty: 2147483647, Ratio: '0.000', Exact: '1.5', Price: '0.00', Fee: '1000000.00', Share: '100.0', Stars: 5, Took: 59, Done: true,
    Day: '2024-01-01', At: '2024-12-31 23:59:59', Starts: '00:00:00', Mail: null, Site: null, Phone: '555 0100', 
    Kind: null, Tags: null, Data: '"just text"',
  },
  {
    Title: null, Notes: null, Qty: null, Ratio: null, Exact: null, Price: null, Fee: null, Share: null, Stars: null, Took: null, Done: null,
    Day: null, At: null, Starts: null, Mail: null, Site: null, Phone: null, Kind: null, Tags: null, Data: null,
  },
];

describeEngines('export and import back of every column type', (engine: TestEngine) => {
  const name = `tablo_t_round_trip_${engine}`;
  let t: TestApp;
  let token = '';
  let projectId = '';
  let base = '';
  const auth = () => ({ 'xc-auth': token });
  const op = (api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
  const rowsOf = async (tn: string) => (await t.request('GET', `${base}/${tn}?sort=id&limit=100`, { headers: auth() })).body as Record<string, unknown>[];
  const exported = async (tn: string, format: 'csv' | 'xlsx') => {
    const res = await t.app.handle(new Request(`http://localhost${base}/${tn}/export/${format}`, { headers: auth() }));
    expect(res.status).toBe(200);
    return new Uint8Array(await res.arrayBuffer());
  };
  const importInto = async (tn: string, file: Uint8Array, filename: string) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args: { tn } }));
    form.set('file', new Blob([file as BlobPart]), filename);
    const up = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', ...auth() }, body: form }));
    const upload = (await up.json()) as { uploadId: string };
    expect(up.status).toBe(200);
    const started = await op('importStart', { uploadId: upload.uploadId, tn, onError: 'skip' });
    expect(started.status).toBe(200);
    for (let i = 0; i < 1000; i++) {
      const s = await op('importStatus', { jobId: started.body.id });
      if (s.body.status !== 'running') return s.body;
      await Bun.sleep(20);
    }
    throw new Error('the import did not end');
  };

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t, 'owner@example.com')).token;
    const cfg = await freshDatabase(engine, name);
    projectId = await projectOver(t, token, engine, 'Round trip', cfg);
    base = `/nc/${projectId}/api/v1`;
    for (const tn of ['every_type', 'every_type_csv', 'every_type_xlsx']) {
      const made = await op('tableCreate', { tn, columns: COLUMNS });
      expect(made.status, made.text).toBe(200);
    }
    const inserted = await t.request('POST', `${base}/every_type/bulk`, { headers: auth(), body: ROWS });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, name);
  });

  test('the rows went in as written', async () => {
    const rows = await rowsOf('every_type');
    expect(rows).toHaveLength(ROWS.length);
    expect(rows[0]).toMatchObject({ Title: 'Plain', Qty: 3, Done: true, Day: '2024-02-29', At: '2024-03-01 13:45:30', Starts: '09:30:00', Tags: 'a,c' });
  });

  for (const format of ['csv', 'xlsx'] as const) {
    test(`a ${format.toUpperCase()} export imported into an empty copy gives the same rows`, async () => {
      const job = await importInto(`every_type_${format}`, await exported('every_type', format), `every_type.${format}`);
      expect(job.problems).toEqual([]);
      expect(job).toMatchObject({ status: 'done', rowsImported: ROWS.length, rowsSkipped: 0 });
      expect(await rowsOf(`every_type_${format}`)).toEqual(await rowsOf('every_type'));
    });
  }

  test('the XLSX export shows amounts in their currency, percents as percents, dates and times with a format', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await exported('every_type', 'xlsx')) as never);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    const cell = (column: string, row = 2) => ws.getRow(row).getCell(header.indexOf(column) + 1);
    expect(cell('Price').value).toBe(19.99);
    expect(cell('Price').numFmt).toBe('#,##0.00"\u00a0€"');
    expect(cell('Price', 3).value).toBe(-1234567.89);
    expect(cell('Fee').value).toBe(5);
    expect(cell('Fee').numFmt).toBe('"$"#,##0.00');
    expect(cell('Share').value).toBe(0.425);
    expect(cell('Share').numFmt).toBe('0.0%');
    expect(cell('Ratio').value).toBe(1.25);
    expect(cell('Ratio').numFmt).toBe('#,##0.000');
    expect(cell('Day').value).toEqual(new Date(Date.UTC(2024, 1, 29)));
    expect(cell('Day').numFmt).toBe('yyyy-mm-dd');
    expect(cell('At').value).toEqual(new Date(Date.UTC(2024, 2, 1, 13, 45, 30)));
    expect(cell('At').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(cell('Starts').numFmt).toBe('hh:mm:ss');
    // A time of day is Excel's fraction of a day (exceljs reads it as a moment of 1899-12-30).
    expect(cell('Starts').value).toEqual(new Date(Date.UTC(1899, 11, 30, 9, 30, 0)));
    expect(cell('Qty').value).toBe(3);
    expect(cell('Done').value).toBe(true);
    expect(cell('Title', 3).value).toBe('Quote " comma, semi; =1+2');
    // An empty row's cells are empty.
    expect(cell('Price', 5).value).toBeNull();
  });
});
