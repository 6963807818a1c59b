/**
 * CSV, XLSX and JSON import and export on SQLite, PostgreSQL and MariaDB: types detected and converted,
 * bad rows reported (skipped or stopping the import), cancel, all or nothing, an export round trip
 * on Chinook's Track, rights (viewer, editor, hidden columns) and bad files.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';

const auth = (token: string) => ({ 'xc-auth': token });

/** A CSV of the types the import detects (semicolons, BOM, quoted fields). */
const TYPES_CSV =
  '\ufeffCount;Price;Day;Stamp;Done;Mail;Site;Kind;Note\n' +
  Array.from({ length: 12 }, (_, i) =>
    [i + 1, `${i}.25`, `2024-01-${String(i + 1).padStart(2, '0')}`, `2024-02-03 10:${String(i).padStart(2, '0')}:00`, i % 2 ? 'yes' : 'no', `p${i}@example.com`, `https://example.com/${i}`, ['red', 'green', 'blue'][i % 3], i === 0 ? '"semi; colon, ""quoted""\nand a new line"' : `note ${i}`].join(';'),
  ).join('\n') +
  '\n';

describeEngines('import and export', (engine: TestEngine) => {
  const dbName = `tablo_t_import_export_${engine}`;
  let t: TestApp;
  let owner = '';
  let editor = '';
  let viewer = '';
  let projectId = '';
  let base = '';

  const op = (token: string, api: string, args?: unknown) => dashboardOp(t, token, api, { project_id: projectId, args });
  const upload = async (token: string, content: string | Uint8Array, filename: string, args: Record<string, unknown> = {}) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'importUpload', project_id: projectId, dbAlias: 'db', args }));
    form.set('file', new Blob([content as BlobPart]), filename);
    const res = await t.app.handle(new Request('http://localhost/dashboard?q=sqlOp_importUpload', { method: 'POST', headers: { 'xc-gui': 'true', ...auth(token) }, body: form }));
    return { status: res.status, body: (await res.json()) as any };
  };
  const finish = async (token: string, jobId: string) => {
    for (let i = 0; i < 2000; i++) {
      const s = await op(token, 'importStatus', { jobId });
      expect(s.status).toBe(200);
      if (s.body.status !== 'running') return s.body;
      await Bun.sleep(20);
    }
    throw new Error('the import did not end');
  };
  const importFile = async (token: string, content: string | Uint8Array, filename: string, start: Record<string, unknown>) => {
    const up = await upload(token, content, filename, start.tn ? { tn: start.tn } : {});
    expect(up.status).toBe(200);
    const s = await op(token, 'importStart', { uploadId: up.body.uploadId, ...start });
    expect(s.status).toBe(200);
    return finish(token, s.body.id);
  };
  const get = async (token: string, path: string) => (await t.request('GET', `${base}/${path}`, { headers: auth(token) })).body;
  const tables = async () => (await op(owner, 'tableList')).body.data.list.map((x: any) => x.tn);
  const countOf = async (tn: string) => (await get(owner, `${tn}/count`)).count as number;
  const join_ = async (email: string, roles: string) => {
    const invite = await t.request('POST', '/admin', { headers: auth(owner), body: { email, roles, project_id: projectId } });
    const token = String(invite.body.invite_url).split('/signup/')[1]!;
    return (await t.request('POST', '/auth/signup', { body: { email, password: 'password123', token } })).body.token as string;
  };

  beforeAll(async () => {
    t = await makeTestApp();
    owner = (await signupSuperAdmin(t, 'owner@example.com')).token;
    const cfg = await loadChinook(engine, dbName);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, 'imp.sqlite'), Bun.file(cfg.connection.filename!));
      connection = { filename: 'imp.sqlite' };
    }
    projectId = (await dashboardOp(t, owner, 'projectCreateByWeb', { args: { title: 'Imports', db: { client: engine, connection } } })).body.id;
    base = `/nc/${projectId}/api/v1`;
    editor = await join_('editor@example.com', 'editor');
    viewer = await join_('viewer@example.com', 'viewer');
    for (const tn of ['imp_types', 'imp_bad', 'imp_aon', 'imp_cancel', 'imp_keep', 'track_csv', 'track_xlsx', 'imp_editor', 'imp_sheet', 'imp_unique', 'imp_ids', 'imp_formula', 'imp_json', 'imp_jsonl', 'imp_utf16', 'imp_comma', 'imp_exact', 'imp_ragged', 'imp_lines', 'imp_sheet_gap', 'imp_codes', 'imp_times', 'imp_quotes', 'imp_money', 'imp_errors']) {
      if ((await tables()).includes(tn)) await op(owner, 'tableDelete', { tn });
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, dbName);
  });

  test('the preview detects the delimiter and a type per column; the import creates the table as a migration and converts values', async () => {
    const up = await upload(owner, TYPES_CSV, 'types.csv');
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ format: 'csv', delimiter: ';', sheets: null });
    expect(up.body.preview.columns.map((c: any) => [c.header, c.type])).toEqual([
      ['Count', 'number'], ['Price', 'decimal'], ['Day', 'date'], ['Stamp', 'datetime'], ['Done', 'checkbox'],
      ['Mail', 'email'], ['Site', 'url'], ['Kind', 'select'], ['Note', 'text'],
    ]);
    expect(up.body.preview.rows[0][8]).toBe('semi; colon, "quoted"\nand a new line');
    // Note is imported as LongText, Kind kept as a select with its three choices.
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_types', _tn: 'Imported types' }, columns: [{ index: 8, type: 'text' }] });
    expect(s.status).toBe(200);
    const job = await finish(owner, s.body.id);
    expect(job).toMatchObject({ status: 'done', rowsRead: 12, rowsImported: 12, rowsSkipped: 0, problems: [], table: { tn: 'imp_types', created: true } });
    const rows = await get(owner, 'imp_types?sort=Count&limit=100');
    expect(rows.length).toBe(12);
    expect(rows[1]).toMatchObject({ Count: 2, Price: 1.25, Day: '2024-01-02', Stamp: '2024-02-03 10:01:00', Done: true, Mail: 'p1@example.com', Site: 'https://example.com/1', Kind: 'green', Note: 'note 1' });
    expect(rows[0]).toMatchObject({ Done: false, Note: 'semi; colon, "quoted"\nand a new line' });
    const meta = await op(owner, 'tableMeta', { tn: 'imp_types' });
    expect(meta.body._tn).toBe('Imported types');
    expect(Object.fromEntries(meta.body.columns.map((c: any) => [c._cn, c.uidt]))).toMatchObject({ Count: 'Number', Price: 'Decimal', Day: 'Date', Stamp: 'DateTime', Done: 'Checkbox', Mail: 'Email', Site: 'URL', Kind: 'SingleSelect' });
    const migrations = (await op(owner, 'migrationList')).body.list.map((m: any) => m.title);
    expect(migrations).toContain("Create table 'imp_types'");
  });

  const BAD_CSV = 'Name,Qty,When\na,1,2024-01-01\nb,2,2024-01-02\nc,three,2024-01-03\nd,4,not a date\ne,5,2024-01-05\n';

  test('rows that do not fit are reported and skipped, or stop the import', async () => {
    // Detected as text (a value is no number); the user makes them a number and a date.
    const up = await upload(owner, BAD_CSV, 'bad.csv');
    expect(up.body.preview.columns.map((c: any) => c.type)).toEqual(['text', 'text', 'text']);
    const typed = [{ index: 1, type: 'number' }, { index: 2, type: 'date' }];
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_bad' }, columns: typed, onError: 'skip' });
    const job = await finish(owner, s.body.id);
    expect(job).toMatchObject({ status: 'done', rowsRead: 5, rowsImported: 3, rowsSkipped: 2, problemCount: 2 });
    expect(job.problems[0]).toMatchObject({ row: 4, column: 'Qty', value: 'three' });
    expect(job.problems[0].reason).toContain('whole number');
    expect(job.problems[1]).toMatchObject({ row: 5, column: 'When', value: 'not a date' });
    expect(await countOf('imp_bad')).toBe(3);
    // Into the existing table, stopping at the first bad row: the two rows above it stay.
    const stopped = await importFile(owner, BAD_CSV, 'bad.csv', { tn: 'imp_bad', onError: 'stop' });
    expect(stopped).toMatchObject({ status: 'stopped', rowsImported: 2, rolledBack: false, problems: [{ row: 4, column: 'Qty', value: 'three' }] });
    expect(stopped.message).toContain('line 4');
    expect(await countOf('imp_bad')).toBe(5);
  });

  test('a row with more values than the header has columns (an unquoted comma) is reported, not imported shifted or cut', async () => {
    const csv = 'Name,City\nAda,London\nSmith, John,Paris\nBob,Rome,\nEve\n';
    const job = await importFile(owner, csv, 'people.csv', { create: { tn: 'imp_ragged' } });
    expect(job).toMatchObject({ status: 'done', rowsRead: 4, rowsImported: 3, rowsSkipped: 1, problemCount: 1 });
    expect(job.problems).toEqual([{ row: 3, column: null, value: 'Paris', reason: 'The row has 3 values where the header has 2 columns (a value holding the delimiter must be quoted)' }]);
    // A trailing delimiter (an empty cell past the end) and a short row are fine.
    expect(await get(owner, 'imp_ragged?sort=Name&fields=Name,City')).toEqual([{ Name: 'Ada', City: 'London' }, { Name: 'Bob', City: 'Rome' }, { Name: 'Eve', City: null }]);
    const stopped = await importFile(owner, csv, 'people.csv', { tn: 'imp_ragged', onError: 'stop' });
    expect(stopped).toMatchObject({ status: 'stopped', rowsImported: 1, problems: [{ row: 3, column: null }] });
    expect(stopped.message).toBe('Stopped at line 3: the row has more values than the header has columns');
    expect(await countOf('imp_ragged')).toBe(4);
  });

  test('a row is reported by its row in the sheet: empty lines of a CSV and empty rows of a workbook count', async () => {
    // Line 5 is "b,x" after two empty lines; the quoted value of record 7 spans three lines but is one row.
    const csv = 'Name,Qty\na,1\n\n\nb,x\n"c\nd\ne",2\nf,y\n';
    const job = await importFile(owner, csv, 'lines.csv', { create: { tn: 'imp_lines' }, columns: [{ index: 1, type: 'number' }], onError: 'skip' });
    expect(job).toMatchObject({ status: 'done', rowsRead: 4, rowsImported: 2, rowsSkipped: 2 });
    expect(job.problems.map((p: any) => [p.row, p.value])).toEqual([[5, 'x'], [7, 'y']]);
    const stopped = await importFile(owner, csv, 'lines.csv', { tn: 'imp_lines', onError: 'stop' });
    expect(stopped.message).toBe('Stopped at line 5: "x" is not a whole number');
    // A sheet's empty row 3: the bad value is in row 5 of the sheet.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Gap');
    ws.addRow(['Name', 'Qty']);
    ws.addRow(['a', 1]);
    ws.addRow([]);
    ws.addRow(['b', 2]);
    ws.addRow(['c', 'three']);
    const xl = await importFile(owner, new Uint8Array(await wb.xlsx.writeBuffer()), 'gap.xlsx', { create: { tn: 'imp_sheet_gap' }, columns: [{ index: 1, type: 'number' }], onError: 'skip' });
    expect(xl).toMatchObject({ status: 'done', rowsRead: 3, rowsImported: 2 });
    expect(xl.problems.map((p: any) => [p.row, p.value])).toEqual([[5, 'three']]);
  });

  test('codes with a leading zero or more digits than a number holds are detected as text and kept as written; blanks around a choice or an address are no misfit', async () => {
    const csv = 'Zip,Card,Qty,Kind,Mail\n01234,12345678901234567890,0,red,a@example.com\n00501,4000000000000002,10, red,b@example.com \n10001,1,-3,red ,c@example.com\n02134,2,4,green,d@example.com\n02135,3,5,green,e@example.com\n02136,4,6,green,f@example.com\n';
    const up = await upload(owner, csv, 'codes.csv');
    expect(up.body.preview.columns.map((c: any) => [c.header, c.type])).toEqual([['Zip', 'text'], ['Card', 'text'], ['Qty', 'number'], ['Kind', 'select'], ['Mail', 'email']]);
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_codes' }, onError: 'skip' });
    const job = await finish(owner, s.body.id);
    expect(job).toMatchObject({ status: 'done', rowsImported: 6, rowsSkipped: 0, problems: [] });
    // An amount with its currency sign goes into a Currency column as its number.
    expect((await op(owner, 'tableCreate', { tn: 'imp_money', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'price', uidt: 'Currency' }] })).status).toBe(200);
    expect(await importFile(owner, 'price\n$5.00\n-€7.25\n12\n', 'money.csv', { tn: 'imp_money' })).toMatchObject({ status: 'done', rowsImported: 3, problems: [] });
    expect((await get(owner, 'imp_money?sort=Id&fields=Price')).map((r: any) => Number(r.Price))).toEqual([5, -7.25, 12]);
    expect(await get(owner, 'imp_codes?sort=Zip&fields=Zip,Card,Qty,Kind,Mail')).toEqual([
      { Zip: '00501', Card: '4000000000000002', Qty: 10, Kind: 'red', Mail: 'b@example.com' },
      { Zip: '01234', Card: '12345678901234567890', Qty: 0, Kind: 'red', Mail: 'a@example.com' },
      { Zip: '02134', Card: '2', Qty: 4, Kind: 'green', Mail: 'd@example.com' },
      { Zip: '02135', Card: '3', Qty: 5, Kind: 'green', Mail: 'e@example.com' },
      { Zip: '02136', Card: '4', Qty: 6, Kind: 'green', Mail: 'f@example.com' },
      { Zip: '10001', Card: '1', Qty: -3, Kind: 'red', Mail: 'c@example.com' },
    ]);
  });

  test('a quote that does not close its value refuses the file at its row instead of taking the lines after it into one value', async () => {
    const early = await upload(owner, 'Name,Qty\na,1\n"ab"cd,2\nb,3\n', 'quotes.csv');
    expect([early.status, early.body.msg]).toEqual([400, 'Row 3 of the file has a quote that does not close its value: a quote inside a value must be written twice ("")']);
    const open = await upload(owner, 'Name,Qty\na,1\n\n"never closed,2\nb,3\n', 'quotes.csv');
    expect([open.status, open.body.msg]).toEqual([400, 'Row 4 of the file has a quote that does not close its value: a quote inside a value must be written twice ("")']);
    // Past the preview's sample: the import fails there, saying where; the rows before it went in.
    const csv = 'Name,Qty\n' + Array.from({ length: 1500 }, (_, i) => `n${i},${i}`).join('\n') + '\n"5" screen",1\nlast,2\n';
    const job = await importFile(owner, csv, 'late.csv', { create: { tn: 'imp_quotes' } });
    expect(job).toMatchObject({ status: 'failed', rowsImported: 1500, message: 'Row 1502 of the file has a quote that does not close its value: a quote inside a value must be written twice ("")' });
    // A quote inside an unquoted value is text, as spreadsheets read it.
    const inner = await importFile(owner, 'Name,Qty\n5" screen,-10\n', 'inner.csv', { tn: 'imp_quotes' });
    expect(inner).toMatchObject({ status: 'done', rowsImported: 1 });
    expect((await get(owner, 'imp_quotes?where=(Qty,eq,-10)&fields=Name')).map((r: any) => r.Name)).toEqual(['5" screen']);
  });

  test('rows the database refuses (a duplicate of a unique column) are found row by row and reported', async () => {
    const made = await op(owner, 'tableCreate', { tn: 'imp_unique', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'code', uidt: 'SingleLineText', unique: true }, { cn: 'label', uidt: 'SingleLineText' }] });
    expect(made.status).toBe(200);
    expect((await t.request('POST', `${base}/imp_unique`, { headers: auth(owner), body: { Code: 'A' } })).status).toBe(200);
    const csv = 'code,label\nB,first\nA,taken before\nC,third\nC,twice in the file\nD,last\n';
    const job = await importFile(owner, csv, 'codes.csv', { tn: 'imp_unique', onError: 'skip' });
    expect(job).toMatchObject({ status: 'done', rowsImported: 3, rowsSkipped: 2, problemCount: 2 });
    expect(job.problems.map((p: any) => p.row)).toEqual([3, 5]);
    // In the grid's words (the column's display name), on every engine.
    expect(job.problems.map((p: any) => p.reason)).toEqual(['A row with the same Code already exists', 'A row with the same Code already exists']);
    expect((await get(owner, 'imp_unique?sort=Code&limit=10')).map((r: any) => r.Code)).toEqual(['A', 'B', 'C', 'D']);
    // A key taken (an export imported back into its table): the key column by its name (MariaDB names the index, PRIMARY).
    const keys = await importFile(owner, 'Id,Code\n1,Z\n', 'keys.csv', { tn: 'imp_unique', onError: 'skip' });
    expect(keys.problems.map((p: any) => p.reason)).toEqual(['A row with the same Id already exists']);
    // All or nothing, stopping: nothing of the file stays.
    const stopped = await importFile(owner, 'code,label\nE,new\nA,taken\n', 'codes.csv', { tn: 'imp_unique', onError: 'stop', allOrNothing: true });
    expect(stopped).toMatchObject({ status: 'stopped', rolledBack: true, problems: [{ row: 3 }] });
    expect(await countOf('imp_unique')).toBe(4);
    // An editor's import meets the refused row the same way (the rows around it stay).
    const byEditor = await importFile(editor, 'code,label\nF,first\nA,taken\nG,last\n', 'codes.csv', { tn: 'imp_unique', onError: 'skip' });
    expect(byEditor).toMatchObject({ status: 'done', rowsImported: 2, rowsSkipped: 1, problemCount: 1 });
    expect(byEditor.problems.map((p: any) => p.row)).toEqual([3]);
    expect((await get(owner, 'imp_unique?sort=Code&limit=10')).map((r: any) => r.Code)).toEqual(['A', 'B', 'C', 'D', 'F', 'G']);
  });

  test('all or nothing: a stop leaves no row in an existing table and no new table', async () => {
    const before = await countOf('imp_bad');
    const job = await importFile(owner, BAD_CSV, 'bad.csv', { tn: 'imp_bad', onError: 'stop', allOrNothing: true, batchSize: 1 });
    expect(job).toMatchObject({ status: 'stopped', rolledBack: true, rowsImported: 0 });
    expect(await countOf('imp_bad')).toBe(before);
    const created = await importFile(owner, BAD_CSV, 'bad.csv', { create: { tn: 'imp_aon' }, columns: [{ index: 1, type: 'number' }], onError: 'stop', allOrNothing: true });
    expect(created.message ?? '').not.toContain('could not be dropped');
    expect(created).toMatchObject({ status: 'stopped', rolledBack: true });
    expect(await tables()).not.toContain('imp_aon');
  });

  test('cancel: all or nothing drops the new table; otherwise the rows so far stay', async () => {
    const big = 'Title,N\n' + Array.from({ length: 20_000 }, (_, i) => `row ${i},${i}`).join('\n');
    for (const allOrNothing of [true, false]) {
      const tn = allOrNothing ? 'imp_cancel' : 'imp_keep';
      const up = await upload(owner, big, 'big.csv');
      const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn }, allOrNothing, batchSize: 50 });
      expect(s.body.status).toBe('running');
      // Let a few batches in, then cancel.
      for (let i = 0; i < 500 && (await op(owner, 'importStatus', { jobId: s.body.id })).body.rowsImported < 100; i++) await Bun.sleep(5);
      const c = await op(owner, 'importCancel', { jobId: s.body.id });
      expect(c.status).toBe(200);
      const job = await finish(owner, s.body.id);
      expect(job.message ?? '').toBe('');
      expect(job.status).toBe('cancelled');
      if (allOrNothing) {
        expect(job.rolledBack).toBe(true);
        expect(await tables()).not.toContain(tn);
      } else {
        expect(job.rowsImported).toBeGreaterThan(0);
        expect(job.rowsImported).toBeLessThan(20_000);
        expect(await countOf(tn)).toBe(job.rowsImported);
      }
    }
  }, 30_000);

  const trackColumns = 'TrackId,Name,AlbumId,MediaTypeId,GenreId,Composer,Milliseconds,Bytes,UnitPrice';

  test('export then import gives the same rows (CSV and XLSX, Chinook Track)', async () => {
    const rows = await (async () => {
      const out: any[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await get(owner, `Track?fields=${trackColumns}&sort=TrackId&limit=1000&offset=${offset}`);
        out.push(...page);
        if (page.length < 1000) return out;
      }
    })();
    expect(rows.length).toBe(3503);
    for (const format of ['csv', 'xlsx'] as const) {
      const res = await t.app.handle(new Request(`http://localhost${base}/Track/export/${format}?fields=${trackColumns}`, { headers: auth(owner) }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`Track.${format}`);
      const file = new Uint8Array(await res.arrayBuffer());
      const tn = `track_${format}`;
      const job = await importFile(owner, file, `Track.${format}`, { create: { tn } });
      expect(job).toMatchObject({ status: 'done', rowsImported: 3503, rowsSkipped: 0 });
      const copy: any[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await get(owner, `${tn}?fields=${trackColumns}&sort=TrackId&limit=1000&offset=${offset}`);
        copy.push(...page);
        if (page.length < 1000) break;
      }
      expect(copy).toEqual(rows);
    }
  }, 60_000);

  test("a file with an Id column of its own imports into a new table beside the key; the export is named after the table", async () => {
    const csv = 'Id,Title,id 2\n7,Seven,a\n9,Nine,b\n';
    const job = await importFile(owner, csv, 'ids.csv', { create: { tn: 'imp_ids', _tn: 'Años 客户' } });
    expect(job).toMatchObject({ status: 'done', rowsImported: 2 });
    const meta = await op(owner, 'tableMeta', { tn: 'imp_ids' });
    expect(meta.body.columns.map((c: any) => c._cn)).toEqual(['Id', 'Id 3', 'Title', 'id 2']);
    const rows = await get(owner, `${encodeURIComponent('Años 客户')}?sort=Id`);
    expect(rows.map((r: any) => [r['Id 3'], r.Title, r['id 2']])).toEqual([[7, 'Seven', 'a'], [9, 'Nine', 'b']]);
    expect(rows.map((r: any) => r.Id)).toEqual([1, 2]);
    // A display name chosen twice is refused before anything is created.
    const up = await upload(owner, csv, 'ids.csv');
    const twice = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_ids_twice' }, columns: [{ index: 1, _cn: 'id' }] });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe("Two columns would be shown as 'id'");
    expect(await tables()).not.toContain('imp_ids_twice');
    const res = await t.app.handle(new Request(`http://localhost${base}/${encodeURIComponent('Años 客户')}/export/csv`, { headers: auth(owner) }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="A_os_.csv"; filename*=UTF-8''A%C3%B1os%20%E5%AE%A2%E6%88%B7.csv`);
    expect((await res.text()).split('\r\n')[0]).toBe('Id,Id 3,Title,id 2');
  });

  test('text a spreadsheet would run as a formula is exported to CSV behind an apostrophe; numbers and XLSX stay as they are', async () => {
    const job = await importFile(owner, 'Note,Qty,Price\nplain,-5,-5.5\n', 'formula.csv', { create: { tn: 'imp_formula' } });
    expect(job).toMatchObject({ status: 'done', rowsImported: 1 });
    const notes = ['=1+1', '+cmd', '-x', '@SUM(A1)', '\tlead', '\rret', '=HYPERLINK("http://x","y")', 'a=b', '-4'];
    for (const [i, Note] of notes.entries()) {
      const res = await t.request('POST', `${base}/imp_formula`, { headers: auth(owner), body: { Note, Qty: i + 1, Price: i + 0.5 } });
      expect(res.status).toBe(200);
    }
    const res = await t.app.handle(new Request(`http://localhost${base}/imp_formula/export/csv?fields=Note,Qty,Price&sort=Qty`, { headers: auth(owner) }));
    expect((await res.text()).split('\r\n')).toEqual([
      'Note,Qty,Price', 'plain,-5,-5.5', "'=1+1,1,0.5", "'+cmd,2,1.5", "'-x,3,2.5", "'@SUM(A1),4,3.5", "'\tlead,5,4.5",
      `"'\rret",6,5.5`, `"'=HYPERLINK(""http://x"",""y"")",7,6.5`, 'a=b,8,7.5', "'-4,9,8.5", '',
    ]);
    // XLSX text cells are typed as text (never formulas): the value stays as typed.
    const x = await t.app.handle(new Request(`http://localhost${base}/imp_formula/export/xlsx?fields=Note,Qty,Price&sort=Qty`, { headers: auth(owner) }));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await x.arrayBuffer()) as any);
    expect(wb.worksheets[0]!.getRow(2).values).toEqual([undefined, 'plain', -5, -5.5]);
    expect(wb.worksheets[0]!.getRow(3).values).toEqual([undefined, '=1+1', 1, 0.5]);
    // The exported file goes back in as it was: the apostrophes are dropped again.
    const back = await importFile(owner, new Uint8Array(await (await t.app.handle(new Request(`http://localhost${base}/imp_formula/export/csv?fields=Note,Qty,Price&sort=Qty`, { headers: auth(owner) }))).arrayBuffer()), 'formula.csv', { tn: 'imp_formula' });
    expect(back).toMatchObject({ status: 'done', rowsImported: notes.length + 1, rowsSkipped: 0 });
    const all = await get(owner, 'imp_formula?fields=Note&sort=Qty&limit=100');
    expect(all.map((r: any) => r.Note).sort()).toEqual(['plain', 'plain', ...notes, ...notes].sort());
  });

  test('export follows where, sort and fields', async () => {
    const res = await t.app.handle(new Request(`http://localhost${base}/Track/export/csv?where=(GenreId,eq,2)&sort=-Milliseconds&fields=Name,Milliseconds`, { headers: auth(owner) }));
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('Name,Milliseconds');
    const count = (await get(owner, 'Track/count?where=(GenreId,eq,2)')).count;
    expect(lines.length - 1).toBe(count);
    const first = (await get(owner, 'Track?where=(GenreId,eq,2)&sort=-Milliseconds&limit=1'))[0];
    expect(lines[1]!.endsWith(`,${first.Milliseconds}`)).toBe(true);
    const x = await t.app.handle(new Request(`http://localhost${base}/Genre/export/xlsx?sort=GenreId`, { headers: auth(owner) }));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await x.arrayBuffer()) as any);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(26);
    expect(ws.getRow(2).values).toEqual([undefined, 1, 'Rock']);
    expect((await t.request('GET', `${base}/Track/export/csv?where=(Nope,eq,1)`, { headers: auth(owner) })).status).toBe(400);
    // A saved view: its filter, sort and shown fields.
    const track = engine === 'pg' ? 'track' : 'Track';
    const genre = engine === 'pg' ? 'genre_id' : 'GenreId';
    const ms = engine === 'pg' ? 'milliseconds' : 'Milliseconds';
    const name = engine === 'pg' ? 'name' : 'Name';
    const view = await op(owner, 'xcVirtualTableCreate', { tn: track, title: 'Long metal', type: 'grid', query_params: { where: '(GenreId,eq,3)', sort: '-Milliseconds', fields: [{ cn: name, show: true }, { cn: ms, show: true }, { cn: genre, show: false }] } });
    expect(view.status).toBe(200);
    const viewed = (await (await t.app.handle(new Request(`http://localhost${base}/Track/export/csv?view=${view.body.id}`, { headers: auth(owner) }))).text()).trim().split('\r\n');
    expect(viewed[0]!.split(',').slice(0, 2)).toEqual(['Name', 'Milliseconds']);
    expect(viewed.length - 1).toBe((await get(owner, 'Track/count?where=(GenreId,eq,3)')).count);
    expect((await t.request('GET', `${base}/Track/export/pdf`, { headers: auth(owner) })).status).toBe(404);
    const doc = (await t.request('GET', `/nc/${projectId}/docs/openapi.json?dbAlias=db`, { headers: auth(owner) })).body;
    expect(doc.paths['/api/v1/Track/export/csv'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['where', 'sort', 'fields']));
    expect(Object.keys(doc.paths['/api/v1/Track/export/xlsx'].get.responses['200'].content)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
  });

  test('a column shown under a name with a comma (a quoted CSV header) can be chosen and sorted in an export, as the grid asks', async () => {
    const job = await importFile(owner, 'Name,"Price, net",Qty\nlow,1.5,1\nhigh,9.25,2\nmid,4,3\n', 'prices.csv', { create: { tn: 'imp_comma' } });
    expect(job).toMatchObject({ status: 'done', rowsImported: 3 });
    // The grid sends its shown fields and sort by display name.
    const q = `fields=${encodeURIComponent('Name,Price, net')}&sort=${encodeURIComponent('-Price, net')}`;
    const res = await t.app.handle(new Request(`http://localhost${base}/imp_comma/export/csv?${q}`, { headers: auth(owner) }));
    expect([res.status, (await res.text()).trim().split('\r\n')]).toEqual([200, ['Name,"Price, net"', 'high,9.25', 'mid,4', 'low,1.5']]);
    expect((await get(owner, `imp_comma?${q}`)).map((r: any) => r.Name)).toEqual(['high', 'mid', 'low']);
    // A list whose pieces each name a column reads as before; a piece naming none is still a 400 naming it.
    expect((await get(owner, 'imp_comma?fields=Qty,Name&sort=Qty')).map((r: any) => Object.keys(r))).toEqual([['Qty', 'Name'], ['Qty', 'Name'], ['Qty', 'Name']]);
    expect((await t.request('GET', `${base}/imp_comma?fields=Name,Nope`, { headers: auth(owner) })).body).toEqual({ msg: "Column 'Nope' not found" });
  });

  test('rights: viewers import nothing, editors only into existing tables, exports hide hidden columns', async () => {
    const csv = 'title\none\ntwo\n';
    expect((await upload(viewer, csv, 'a.csv')).status).toBe(403);
    expect((await upload(viewer, csv, 'a.csv', { tn: 'imp_bad' })).status).toBe(403);
    expect((await upload(editor, csv, 'a.csv')).status).toBe(403);
    const up = await upload(editor, 'Name,Qty\nfrom editor,7\n', 'a.csv', { tn: 'imp_bad' });
    expect(up.status).toBe(200);
    expect((await op(editor, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_editor' } })).status).toBe(403);
    expect(await tables()).not.toContain('imp_editor');
    // Another user's upload is not theirs to use.
    expect((await op(viewer, 'importStart', { uploadId: up.body.uploadId, tn: 'imp_bad' })).status).toBe(404);
    const s = await op(editor, 'importStart', { uploadId: up.body.uploadId, tn: 'imp_bad' });
    expect((await finish(editor, s.body.id)).rowsImported).toBe(1);
    expect((await get(owner, 'imp_bad?where=(Name,eq,from editor)'))[0]).toMatchObject({ Qty: 7 });
    const rule = await op(owner, 'aclSave', { tn: 'Customer', role: 'viewer', rule: { read: ['CustomerId', 'FirstName'], create: false, update: false, delete: false } });
    expect(rule.status).toBe(200);
    const res = await t.request('GET', `${base}/Customer/export/csv`, { headers: auth(viewer) });
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n')[0]).toBe('CustomerId,FirstName');
    expect(res.text.trim().split('\r\n').length).toBe(60);
    // A hidden column named in fields is unknown, as in the lists (400 naming it).
    const hidden = await t.request('GET', `${base}/Customer/export/csv?fields=Email`, { headers: auth(viewer) });
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: 400, body: { msg: "Column 'Email' not found" } });
  });

  test("an editor's row condition and column rights apply to every imported row", async () => {
    const rule = await op(owner, 'aclSave', { tn: 'imp_bad', role: 'editor', rule: { read: true, create: ['Name', 'Qty'], update: true, delete: true, where: '(Name,like,ok%)' } });
    expect(rule.status).toBe(200);
    const before = await countOf('imp_bad');
    const job = await importFile(editor, 'Name,Qty\nok one,1\nnot mine,2\nok two,3\n', 'rows.csv', { tn: 'imp_bad' });
    expect(job).toMatchObject({ status: 'done', rowsImported: 2, rowsSkipped: 1, problems: [{ row: 3, column: null }] });
    expect(job.problems[0].reason).toContain('outside the rows');
    expect(await countOf('imp_bad')).toBe(before + 2);
    // Mapping a column the role may not set is refused before anything is read.
    const up = await upload(editor, 'Name,When\nok three,2024-01-01\n', 'rows.csv', { tn: 'imp_bad' });
    const refused = await op(editor, 'importStart', { uploadId: up.body.uploadId, tn: 'imp_bad' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toContain("'When'");
    expect((await op(owner, 'aclSave', { tn: 'imp_bad', role: 'editor', rule: null })).status).toBe(200);
  });

  test('an import writes one audit entry per batch, with the rows it inserted and their ids', async () => {
    const { auditRepo } = await import('../../src/meta/audit-repo');
    const entries = await auditRepo(t.app.ctx.meta).list({ project_id: projectId, op_type: 'DATA', tn: 'imp_types' });
    const batch = entries.find((e) => e.description === 'insert' && e.pk === '')!;
    expect(batch.user_email).toBe('owner@example.com');
    // Each row with its id (the key the database gave it), so its history finds its creation.
    const { ids, rows } = JSON.parse(batch.value!) as { ids: string[]; rows: Record<string, unknown>[] };
    expect([ids.length, rows.length]).toEqual([12, 12]);
    expect(ids.every((id) => /^\d+$/.test(id))).toBe(true);
    expect(rows[0]).toMatchObject({ Count: 1 });
  });

  test('bad files answer 400 with the reason and change nothing', async () => {
    const before = await tables();
    const cases: [string | Uint8Array, string, string][] = [
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]), 'a.png', 'binary content'],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 'a.xlsx', 'XLSX'],
      ['', 'empty.csv', 'empty'],
      ['Name,Qty\n', 'header.csv', 'no data rows'],
      ['Name,Qty,name\n1,2,3\n', 'dup.csv', "header 'name' appears twice"],
      ['Name,,Qty\n1,2,3\n', 'blank.csv', 'Column 2 of the header row has no name'],
      [new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0xe9, 0x74, 0xe9, 0x0a]), 'latin1.csv', 'not UTF-8'],
    ];
    for (const [content, name, msg] of cases) {
      const res = await upload(owner, content, name);
      expect(res.status).toBe(400);
      expect(res.body.msg).toContain(msg);
    }
    expect(await tables()).toEqual(before);
  });

  test("UTF-16 text with a byte order mark (Excel's Unicode Text, tab separated) is previewed and imported as UTF-8", async () => {
    const text = 'Title\tQty\nStraße 東京 🎵\t3\nJosé\t4\n';
    const le = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, 'utf16le'))]);
    const up = await upload(owner, le, 'unicode.txt');
    expect([up.status, up.body.msg]).toEqual([200, undefined]);
    expect(up.body).toMatchObject({ format: 'csv', delimiter: '\t' });
    expect(up.body.preview.columns.map((c: any) => [c.header, c.type])).toEqual([['Title', 'text'], ['Qty', 'number']]);
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_utf16' } });
    expect(await finish(owner, s.body.id)).toMatchObject({ status: 'done', rowsImported: 2, rowsSkipped: 0 });
    expect(await get(owner, 'imp_utf16?sort=Qty&fields=Title,Qty')).toEqual([{ Title: 'Straße 東京 🎵', Qty: 3 }, { Title: 'José', Qty: 4 }]);
    // Big-endian too, into the existing table.
    const swapped = Buffer.from('Title,Qty\nZoë,5\n', 'utf16le').swap16();
    expect(await importFile(owner, new Uint8Array([0xfe, 0xff, ...swapped]), 'be.csv', { tn: 'imp_utf16' })).toMatchObject({ status: 'done', rowsImported: 1 });
    expect(await get(owner, 'imp_utf16?where=(Qty,eq,5)&fields=Title')).toEqual([{ Title: 'Zoë' }]);
    // A lone surrogate is no UTF-16 text.
    const broken = await upload(owner, new Uint8Array([0xff, 0xfe, 0x41, 0, 0x00, 0xd8, 0x0a, 0]), 'broken.txt');
    expect([broken.status, broken.body.msg]).toEqual([400, expect.stringContaining('save the file as UTF-8')]);
  });

  test('an XLSX workbook offers its sheets; the chosen one is previewed and imported', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').addRow(['just text']);
    const s = wb.addWorksheet('Data & more');
    s.addRow(['Title', 'When', 'Amount']);
    s.addRow(['one', new Date(Date.UTC(2024, 4, 6)), 1.5]);
    s.addRow(['two', new Date(Date.UTC(2024, 4, 7, 12, 30)), 2]);
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    const up = await upload(owner, file, 'book.xlsx');
    expect([up.status, up.body.msg]).toEqual([200, undefined]);
    // The first sheet holds no rows under its header: the preview opens on the next one.
    expect(up.body).toMatchObject({ format: 'xlsx', sheets: ['Notes', 'Data & more'], sheet: 'Data & more' });
    const p = await op(owner, 'importPreview', { uploadId: up.body.uploadId, sheet: 'Data & more' });
    expect(p.body.preview.columns.map((c: any) => c.type)).toEqual(['text', 'datetime', 'decimal']);
    expect(p.body.preview.rows).toEqual([['one', '2024-05-06', '1.5'], ['two', '2024-05-07 12:30:00', '2']]);
    expect((await op(owner, 'importPreview', { uploadId: up.body.uploadId, sheet: 'Nope' })).status).toBe(400);
    expect((await op(owner, 'importPreview', { uploadId: up.body.uploadId, sheet: 'Notes' })).body.msg).toContain('no data rows');
    const s2 = await op(owner, 'importStart', { uploadId: up.body.uploadId, sheet: 'Data & more', create: { tn: 'imp_sheet' } });
    expect(await finish(owner, s2.body.id)).toMatchObject({ status: 'done', rowsImported: 2 });
    expect(await get(owner, 'imp_sheet?sort=Title&fields=Title,When,Amount')).toEqual([
      { Title: 'one', When: '2024-05-06 00:00:00', Amount: 1.5 },
      { Title: 'two', When: '2024-05-07 12:30:00', Amount: 2 },
    ]);
  });

  test("a workbook's error cells (#DIV/0!, #N/A, #REF!, #VALUE!) are reported by their cell and row, not imported as empty values", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sums');
    ws.addRow(['Name', 'Qty', 'Ratio', 'Left out']);
    ws.addRow(['a', 1, 0.5, { error: '#REF!' }]);
    ws.addRow(['b', { error: '#DIV/0!' }, 0.25, 'x']);
    ws.addRow([]);
    ws.addRow(['c', 3, { formula: '1/0', result: { error: '#DIV/0!' } }, 'x']);
    ws.addRow(['d', { error: '#N/A' }, 1, 'x']);
    ws.addRow(['e', 5, { formula: 'A1+1', result: { error: '#VALUE!' } }, 'x']);
    ws.addRow(['f', 6, { formula: 'B7*2', result: 12 }, 'x']);
    const file = new Uint8Array(await wb.xlsx.writeBuffer());
    // The preview names the error cells (by row of the sample and column), whose text is empty.
    const up = await upload(owner, file, 'sums.xlsx');
    expect(up.body.preview.rows[1]).toEqual(['b', '', '0.25', 'x']);
    expect(up.body.preview.errors).toEqual([
      { row: 0, column: 3, error: '#REF!' },
      { row: 1, column: 1, error: '#DIV/0!' },
      { row: 2, column: 2, error: '#DIV/0!' },
      { row: 3, column: 1, error: '#N/A' },
      { row: 4, column: 2, error: '#VALUE!' },
    ]);
    // A CSV has none (an error there is text).
    expect((await upload(owner, 'Name,Qty\na,#DIV/0!\n', 'sums.csv')).body.preview.errors).toEqual([]);
    // The fourth column is left out: its #REF! is no problem.
    const job = await importFile(owner, file, 'sums.xlsx', { create: { tn: 'imp_errors' }, columns: [{ index: 1, type: 'number' }, { index: 2, type: 'decimal' }, { index: 3, skip: true }], onError: 'skip' });
    expect(job).toMatchObject({ status: 'done', rowsRead: 6, rowsImported: 2, rowsSkipped: 4, problemCount: 4 });
    expect(job.problems).toEqual([
      { row: 3, column: 'Qty', value: '#DIV/0!', reason: 'Cell B3 holds the error #DIV/0! instead of a value' },
      { row: 5, column: 'Ratio', value: '#DIV/0!', reason: 'Cell C5 holds the error #DIV/0! instead of a value' },
      { row: 6, column: 'Qty', value: '#N/A', reason: 'Cell B6 holds the error #N/A instead of a value' },
      { row: 7, column: 'Ratio', value: '#VALUE!', reason: 'Cell C7 holds the error #VALUE! instead of a value' },
    ]);
    expect(await get(owner, 'imp_errors?sort=Name&fields=Name,Qty,Ratio')).toEqual([{ Name: 'a', Qty: 1, Ratio: 0.5 }, { Name: 'f', Qty: 6, Ratio: 12 }]);
    // Stopping at the first: the row before it stays, the message names the cell.
    const stopped = await importFile(owner, file, 'sums.xlsx', { tn: 'imp_errors', onError: 'stop' });
    expect(stopped).toMatchObject({ status: 'stopped', rowsImported: 1, problems: [{ row: 3, column: 'Qty', value: '#DIV/0!' }], message: 'Stopped at line 3: cell B3 holds the error #DIV/0!' });
    expect(await countOf('imp_errors')).toBe(3);
  });

  test("a workbook's times of day and durations are imported as times, not as dates of 1899", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Hours');
    ws.addRow(['Task', 'Start', 'Took']);
    for (const [task, start, took] of [['build', 0.4375, 1.5], ['test', 0.75, 0.0208333333333333]] as const) {
      const r = ws.addRow([task, start, took]);
      r.getCell(2).numFmt = 'hh:mm';
      r.getCell(3).numFmt = '[h]:mm:ss';
    }
    const up = await upload(owner, new Uint8Array(await wb.xlsx.writeBuffer()), 'hours.xlsx');
    expect(up.body.preview.rows).toEqual([['build', '10:30:00', '36:00:00'], ['test', '18:00:00', '00:30:00']]);
    expect(up.body.preview.columns.map((c: any) => c.type)).toEqual(['text', 'text', 'text']);
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_times' } });
    expect(await finish(owner, s.body.id)).toMatchObject({ status: 'done', rowsImported: 2 });
    expect(await get(owner, 'imp_times?sort=Task&fields=Task,Start,Took')).toEqual([{ Task: 'build', Start: '10:30:00', Took: '36:00:00' }, { Task: 'test', Start: '18:00:00', Took: '00:30:00' }]);
  });

  test('a JSON array of objects is previewed and imported (keys as headers, nested values as JSON); JSON Lines go into an existing table', async () => {
    const items = [
      { Title: 'Straße 東京 🎵', Qty: 3, Price: 1.25, Done: true, Tags: ['a', 'b'], Note: null },
      { Qty: 4, Title: 'two, "quoted"', Price: 2.5, Done: false, Extra: { deep: 1 } },
      { Title: 'three', Qty: 5, Price: 3, Done: true },
    ];
    const up = await upload(owner, JSON.stringify(items, null, 2), 'items.json');
    expect([up.status, up.body.msg]).toEqual([200, undefined]);
    expect(up.body).toMatchObject({ format: 'json', sheets: null });
    expect(up.body.preview.columns.map((c: any) => [c.header, c.type])).toEqual([
      ['Title', 'text'], ['Qty', 'number'], ['Price', 'decimal'], ['Done', 'checkbox'], ['Tags', 'text'], ['Note', 'text'], ['Extra', 'text'],
    ]);
    expect(up.body.preview.rows[1]).toEqual(['two, "quoted"', '4', '2.5', 'false', '', '', '{"deep":1}']);
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_json' } });
    expect(s.status).toBe(200);
    expect(await finish(owner, s.body.id)).toMatchObject({ status: 'done', rowsRead: 3, rowsImported: 3, rowsSkipped: 0 });
    const rows = await get(owner, 'imp_json?sort=Qty&fields=Title,Qty,Price,Done,Tags,Extra');
    expect(rows).toEqual([
      { Title: 'Straße 東京 🎵', Qty: 3, Price: 1.25, Done: true, Tags: '["a","b"]', Extra: null },
      { Title: 'two, "quoted"', Qty: 4, Price: 2.5, Done: false, Tags: null, Extra: '{"deep":1}' },
      { Title: 'three', Qty: 5, Price: 3, Done: true, Tags: null, Extra: null },
    ]);
    // JSON Lines into the existing table, a bad row reported by its line.
    const lines = '{"Title":"four","Qty":6}\n{"Title":"five","Qty":"many"}\n{"Title":"six","Qty":8}\n';
    const job = await importFile(owner, lines, 'more.jsonl', { tn: 'imp_json', onError: 'skip' });
    // The bad row is named by its place among the objects (here its line): the second.
    expect(job).toMatchObject({ status: 'done', rowsImported: 2, rowsSkipped: 1, problems: [{ row: 2, column: 'Qty', value: 'many' }] });
    expect(await countOf('imp_json')).toBe(5);
  });

  test('JSON numbers keep every digit written (a 64-bit id, a long decimal), nested ones too', async () => {
    const text = '[{"Ref": 9007199254740993, "Amount": 1234567890.123456789, "Small": 0.10, "Ids": [12345678901234567891]}]';
    const up = await upload(owner, text, 'exact.json');
    expect([up.status, up.body.msg]).toEqual([200, undefined]);
    expect(up.body.preview.rows[0]).toEqual(['9007199254740993', '1234567890.123456789', '0.10', '[12345678901234567891]']);
    const s = await op(owner, 'importStart', { uploadId: up.body.uploadId, create: { tn: 'imp_exact' }, columns: [0, 1, 2, 3].map((index) => ({ index, type: 'text' })) });
    expect(await finish(owner, s.body.id)).toMatchObject({ status: 'done', rowsImported: 1 });
    expect(await get(owner, 'imp_exact?fields=Ref,Amount,Small,Ids')).toEqual([{ Ref: '9007199254740993', Amount: '1234567890.123456789', Small: '0.10', Ids: '[12345678901234567891]' }]);
  });

  test('a JSON file that is not an array of objects answers 400 with the reason', async () => {
    const before = await tables();
    const cases: [string, string][] = [
      ['[]', 'no rows'],
      ['[{"a":1}, 2]', 'Item 2 of the JSON file is not an object'],
      ['[{"a":1}, {"a":', 'ends in the middle'],
      ['[{"a":1}, {"a":tru}]', 'Item 2 of the JSON file is not valid JSON'],
      ['[{"a":1}] [{"a":2}]', 'more after its closing ]'],
    ];
    for (const [content, msg] of cases) {
      const res = await upload(owner, content, 'bad.json');
      expect([res.status, res.body.msg]).toEqual([400, expect.stringContaining(msg)]);
    }
    expect(await tables()).toEqual(before);
    // A CSV whose headers are bracketed (as SQL Server writes them) is still a CSV.
    const bracketed = await upload(owner, '[Id],[Name]\n1,one\n', 'brackets.csv');
    expect([bracketed.status, bracketed.body.format, bracketed.body.preview?.columns.map((c: any) => c.header)]).toEqual([200, 'csv', ['[Id]', '[Name]']]);
  });
});
