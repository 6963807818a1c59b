/**
 * The write paths of the data core on SQLite, PostgreSQL and MariaDB, both ways: with RETURNING (one
 * statement per row write, one multi-row INSERT … RETURNING per chunk of a bulk create) and without it
 * (the engine's capabilities switched off for the project database: rows read back by key, bulk rows
 * inserted one by one and read back with IN queries). Either way a bulk create answers the ids in the
 * order given, the rows hold their defaults, a table with a formula column is read back, a refused row
 * is named and nothing is written, and every row leaves its audit record and its write event.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';
import type { WriteEvent } from '../../src/data/write-events';
import type { Caps } from '../../src/sql/dialect';

const DDL: Record<string, string> = {
  sqlite: `CREATE TABLE bw_item (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(100) NOT NULL, qty INTEGER NOT NULL DEFAULT 7, note VARCHAR(50), created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);
    CREATE TABLE bw_code (code VARCHAR(20) PRIMARY KEY, label VARCHAR(50) NOT NULL);
    CREATE TABLE bw_calc (id INTEGER PRIMARY KEY AUTOINCREMENT, a INTEGER NOT NULL, b INTEGER NOT NULL DEFAULT 2);`,
  pg: `CREATE TABLE bw_item (id SERIAL PRIMARY KEY, name VARCHAR(100) NOT NULL, qty INTEGER NOT NULL DEFAULT 7, note VARCHAR(50), created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);
    CREATE TABLE bw_code (code VARCHAR(20) PRIMARY KEY, label VARCHAR(50) NOT NULL);
    CREATE TABLE bw_calc (id SERIAL PRIMARY KEY, a INTEGER NOT NULL, b INTEGER NOT NULL DEFAULT 2);`,
  mysql: `CREATE TABLE bw_item (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, qty INT NOT NULL DEFAULT 7, note VARCHAR(50), created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP);
    CREATE TABLE bw_code (code VARCHAR(20) PRIMARY KEY, label VARCHAR(50) NOT NULL);
    CREATE TABLE bw_calc (id INT AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL, b INT NOT NULL DEFAULT 2);`,
};

describeEngines('write paths with and without RETURNING', (engine: TestEngine) => {
  const db = `tablo_t_bulk_writes_${engine}`;
  let t: TestApp;
  let token = '';
  let projectId = '';
  let base = '';
  const events: WriteEvent[] = [];
  let unsubscribe = () => {};
  const rest = (method: string, path: string, body?: unknown) => t.request(method, `${base}/${path}`, { body, headers: { 'xc-auth': token } });
  const audits = (tn: string) =>
    t.app.ctx.meta.all<{ pk: string; cn: string | null; description: string; value: string | null; prev_value: string | null }>(
      `SELECT pk, cn, description, value, prev_value FROM nc_audit WHERE op_type = 'DATA' AND project_id = ? AND tn = ? ORDER BY id`,
      [projectId, tn],
    );
  /** The project database's dialect, whose capabilities a test may switch off for a while. */
  const dialect = async () => (await t.app.ctx.projects.get(projectId)).db.dialect as { caps: Caps };
  /**
   * Runs fn with the rows of INSERT / UPDATE / DELETE … RETURNING off for this project database (the
   * fallback road: rows read back by key). PostgreSQL keeps RETURNING of the key alone, its only way to
   * learn a generated key (as MySQL's insert id); its updates take the RETURNING road either way.
   */
  const withoutReturning = async (fn: () => Promise<void>) => {
    const d = await dialect();
    const caps = d.caps;
    d.caps = { ...caps, returning: engine === 'pg', insertReturning: false, deleteReturning: false };
    try {
      await fn();
    } finally {
      d.caps = caps;
    }
  };
  const eventsOf = (tn: string, op: WriteEvent['op']) => events.filter((e) => e.tn === tn && e.op === op).flatMap((e) => e.rows);
  const settle = () => Bun.sleep(20);

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t, 'owner@example.com')).token;
    const cfg = await freshDatabase(engine, db);
    await runScript(engine, db, DDL[engine]!);
    projectId = await projectOver(t, token, engine, `Bulk writes ${engine}`, cfg);
    base = `/nc/${projectId}/api/v1`;
    unsubscribe = t.app.ctx.writeEvents.subscribe((e) => void events.push(e));
    const res = await dashboardOp(t, token, 'virtualColumnCreate', { project_id: projectId, args: { tn: 'bw_calc', column: { _cn: 'Total', uidt: 'Formula', formula: '{A} + {B}' } } });
    expect(res.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    unsubscribe();
    await t.close();
    await dropDatabase(engine, db);
  });

  test('the engine reports RETURNING where it has it (MariaDB from its server version)', async () => {
    // SQLite and PostgreSQL always; the MariaDB of these machines is 10.11 (INSERT … RETURNING from 10.5).
    expect((await dialect()).caps).toMatchObject({ insertReturning: true, deleteReturning: true });
  });

  for (const road of ['returning', 'fallback'] as const) {
    const run = (fn: () => Promise<void>) => (road === 'returning' ? fn() : withoutReturning(fn));

    test(`${road}: a bulk create of 2,500 rows answers their ids in order, the rows hold their defaults, one audit record holding every row and one event per row`, async () => {
      await run(async () => {
        events.length = 0;
        const before = (await audits('bw_item')).length;
        // Rows of two shapes (qty given or left to its default), mixed, more than one chunk of each.
        const body = Array.from({ length: 2500 }, (_, i) => (i % 3 === 0 ? { Name: `${road} ${i}` } : { Name: `${road} ${i}`, Qty: i }));
        const res = await rest('POST', 'bw_item/bulk', body);
        expect(res.status).toBe(200);
        const ids = res.body as string[];
        expect(ids).toHaveLength(2500);
        expect(new Set(ids).size).toBe(2500);
        const rows = (await rest('GET', `bw_item?where=${encodeURIComponent(`(Name,like,${road} %)`)}&limit=1000&sort=Id`)).body as Record<string, unknown>[];
        const all = [...rows, ...(await rest('GET', `bw_item?where=${encodeURIComponent(`(Name,like,${road} %)`)}&limit=1000&offset=1000&sort=Id`)).body, ...(await rest('GET', `bw_item?where=${encodeURIComponent(`(Name,like,${road} %)`)}&limit=1000&offset=2000&sort=Id`)).body];
        const byId = new Map(all.map((r: Record<string, unknown>) => [String(r.Id), r]));
        ids.forEach((id, i) => {
          const row = byId.get(id)!;
          expect(row.Name).toBe(`${road} ${i}`);
          expect(row.Qty).toBe(i % 3 === 0 ? 7 : i);
          expect(row.CreatedAt).toBeTruthy();
        });
        const audited = (await audits('bw_item')).slice(before);
        expect(audited.map((a) => [a.pk, a.description])).toEqual([['', 'insert']]);
        const held = JSON.parse(audited[0]!.value!) as { ids: string[]; rows: Record<string, unknown>[] };
        expect(held.ids).toEqual(ids);
        expect(held.rows[3]).toMatchObject({ Id: Number(ids[3]), Name: `${road} 3`, Qty: 7 });
        await settle();
        const written = eventsOf('bw_item', 'insert');
        expect(written.map((r) => String(r.data.Id))).toEqual(ids);
        expect(written[0]!.data).toMatchObject({ Name: `${road} 0`, Qty: 7, Note: null });
        expect(written[0]!.data.CreatedAt).toBeTruthy();
      });
    }, 60_000);

    test(`${road}: rows with their keys given come back in the order given`, async () => {
      await run(async () => {
        const codes = ['m', 'c', 'x', 'a', 'q'].map((c) => `${road}-${c}`);
        const res = await rest('POST', 'bw_code/bulk', codes.map((code) => ({ Code: code, Label: `L ${code}` })));
        expect(res.status).toBe(200);
        expect(res.body).toEqual(codes);
        expect((await rest('GET', `bw_code/${codes[2]}`)).body).toEqual({ Code: codes[2], Label: `L ${codes[2]}` });
      });
    });

    test(`${road}: a table with a formula column: create, bulk create and update answer the computed value`, async () => {
      await run(async () => {
        const one = await rest('POST', 'bw_calc', { A: 5 });
        expect(one.status).toBe(200);
        expect(one.body).toMatchObject({ A: 5, B: 2 });
        expect(Number(one.body.Total)).toBe(7);
        const bulk = await rest('POST', 'bw_calc/bulk', [{ A: 1 }, { A: 2, B: 10 }, { A: 3 }]);
        expect(bulk.status).toBe(200);
        const rows = await Promise.all((bulk.body as string[]).map(async (id) => (await rest('GET', `bw_calc/${id}`)).body));
        expect(rows.map((r) => [r.A, r.B, Number(r.Total)])).toEqual([[1, 2, 3], [2, 10, 12], [3, 2, 5]]);
        const up = await rest('PUT', `bw_calc/${one.body.Id}`, { B: 20 });
        expect(up.status).toBe(200);
        expect(Number(up.body.Total)).toBe(25);
        expect((await rest('DELETE', `bw_calc/${one.body.Id}`)).status).toBe(200);
      });
    });

    test(`${road}: create, update and delete of one row answer the row, leave audit records and events`, async () => {
      await run(async () => {
        events.length = 0;
        const before = (await audits('bw_item')).length;
        const made = await rest('POST', 'bw_item', { Name: `${road} single` });
        expect(made.status).toBe(200);
        expect(made.body).toMatchObject({ Name: `${road} single`, Qty: 7, Note: null });
        expect(made.body.CreatedAt).toBeTruthy();
        const id = String(made.body.Id);
        const up = await rest('PUT', `bw_item/${id}`, { Qty: 8, Note: 'n' });
        expect(up.status).toBe(200);
        expect(up.body).toMatchObject({ Id: made.body.Id, Name: `${road} single`, Qty: 8, Note: 'n' });
        expect((await rest('PUT', 'bw_item/999999', { Qty: 1 })).status).toBe(404);
        expect((await rest('DELETE', `bw_item/${id}`)).status).toBe(200);
        expect((await rest('DELETE', `bw_item/${id}`)).status).toBe(404);
        expect((await rest('GET', `bw_item/${id}`)).status).toBe(404);
        const audited = (await audits('bw_item')).slice(before);
        expect(audited.map((a) => [a.pk, a.description, a.cn, a.prev_value, a.value])).toEqual([
          [id, 'insert', null, null, expect.any(String)],
          [id, 'update', 'qty', '7', '8'],
          [id, 'update', 'note', null, 'n'],
          [id, 'delete', null, expect.any(String), null],
        ]);
        expect(JSON.parse(audited[3]!.prev_value!)).toMatchObject({ Id: made.body.Id, Qty: 8, Note: 'n' });
        await settle();
        expect(eventsOf('bw_item', 'insert').map((r) => r.data.Name)).toEqual([`${road} single`]);
        const [updated] = eventsOf('bw_item', 'update');
        expect(updated!.previous).toMatchObject({ Qty: 7, Note: null });
        expect(updated!.data).toMatchObject({ Qty: 8, Note: 'n' });
        expect(eventsOf('bw_item', 'delete').map((r) => r.data)).toEqual([expect.objectContaining({ Id: made.body.Id, Qty: 8 })]);
      });
    });

    test(`${road}: a refused row is named, and a bulk call that fails writes nothing, records nothing, announces nothing`, async () => {
      await run(async () => {
        events.length = 0;
        const before = (await audits('bw_code')).length;
        const dup = await rest('POST', 'bw_code/bulk', [{ Code: `${road}-n1`, Label: 'a' }, { Code: `${road}-n2`, Label: 'b' }, { Code: `${road}-m`, Label: 'taken' }]);
        expect(dup.status).toBe(409);
        expect(dup.body.msg).toStartWith('Row 3: ');
        const bad = await rest('POST', 'bw_code/bulk', [{ Code: `${road}-n3`, Label: 'a' }, { Code: `${road}-n4` }]);
        expect(bad.status).toBe(400);
        expect(bad.body.msg).toStartWith('Row 2: ');
        for (const code of ['n1', 'n2', 'n3']) expect((await rest('GET', `bw_code/${road}-${code}`)).status).toBe(404);
        expect((await audits('bw_code')).length).toBe(before);
        await settle();
        expect(eventsOf('bw_code', 'insert')).toEqual([]);
      });
    });
  }
});
