/**
 * Renames that change only the case of a name (`title` -> `Title`, `orders` -> `Orders`) through
 * the dashboard operations, on SQLite, PostgreSQL and MariaDB: rows, the unique index and the
 * foreign key stay, display names and saved views follow, and the migration rolls back and applies.
 * (The local MariaDB keeps table names as written: lower_case_table_names=0.)
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver, sqliteCopyName } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, type TestEngine } from '../helpers/engines';
import { openDatabase } from '../../src/sql/open-database';
import { lowerCaseTableNames } from '../../src/sql/mysql/table-name-case';
import type { ConnectionConfig, Database } from '../../src/sql/dialect';

// MariaDB DDL commits to disk statement by statement: on a busy machine a change takes a while.
setDefaultTimeout(30_000);

describeEngines('case-only renames', (engine: TestEngine) => {
  const name = `tablo_t_case_renames_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;
  let cfg: ConnectionConfig;
  let raw: Database;
  let viewId: string;

  const op = async (api: string, args: unknown, status = 200) => {
    const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    if (res.status !== status) throw new Error(`${api}: expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
  /** The columns of a table as the database's catalogue spells them. */
  const catalogue = async (tn: string): Promise<string[]> => {
    const sql =
      engine === 'sqlite'
        ? `SELECT name FROM pragma_table_info('${tn}')`
        : `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${tn}' AND table_schema = ${engine === 'pg' ? 'current_schema()' : 'DATABASE()'} ORDER BY ordinal_position`;
    return (await raw.driver.query<{ name: string }>({ sql, params: [] })).map((r) => r.name);
  };
  /** The spellings of the orders table the catalogue holds (a temporary name left behind counts too). */
  const catalogueTables = async (): Promise<string[]> => {
    const sql =
      engine === 'sqlite'
        ? "SELECT name FROM sqlite_master WHERE type = 'table'"
        : `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${engine === 'pg' ? 'current_schema()' : 'DATABASE()'}`;
    return (await raw.driver.query<{ name: string }>({ sql, params: [] })).map((r) => r.name).filter((n) => /orders/i.test(n));
  };
  const tables = async () => ((await op('tableList', {})).data.list as { tn: string }[]).map((x) => x.tn).sort();
  const viewParams = async (tn: string) => ((await op('xcVirtualTableList', { tn })).data.list as { id: string; query_params: unknown }[]).find((v) => v.id === viewId)!.query_params;

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    cfg = await freshDatabase(engine, name);
    const title = `Case ${engine}`;
    projectId = await projectOver(t, token, engine, title, cfg, { inflectionColumn: 'none' });
    // The raw connection reads the project's own copy of a SQLite file.
    if (engine === 'sqlite') cfg = { client: 'sqlite', connection: { filename: join(t.dataDir, sqliteCopyName(title)) } };
    raw = await openDatabase(cfg);

    await op('tableCreate', { tn: 'orders', _tn: 'Order book', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'title', uidt: 'SingleLineText', _cn: 'Heading' }, { cn: 'qty', uidt: 'Number' }] });
    await op('columnUpdate', { tn: 'orders', cn: 'title', column: { unique: true } });
    await op('tableCreate', { tn: 'line', columns: [{ cn: 'id', uidt: 'ID' }, { cn: 'note', uidt: 'SingleLineText' }] });
    await op('relationCreate', { type: 'hm', parentTn: 'orders', childTn: 'line' });
    for (const [title, qty] of [['a', 1], ['b', 2]] as const) {
      const o = await rest('POST', 'orders', { Heading: title, qty });
      expect(o.status).toBe(200);
      expect((await rest('POST', 'line', { note: `of ${title}`, orders_id: o.body.id })).status).toBe(200);
    }
    viewId = (await op('xcVirtualTableCreate', { tn: 'orders', title: 'By heading', type: 'grid', query_params: { where: '(title,neq,x)', sort: '-title', fields: [{ cn: 'title', show: true, width: 150 }, { cn: 'qty', show: false }] } })).id;
  });
  afterAll(async () => {
    await raw?.driver.close();
    await t?.close();
    await dropDatabase(engine, name);
  });

  test('a column renamed title -> Title keeps its rows, unique index, display name and view settings', async () => {
    const res = await op('columnUpdate', { tn: 'orders', cn: 'title', column: { cn: 'Title' } });
    expect(res.table.columns.find((c: { _cn: string }) => c._cn === 'Heading')).toMatchObject({ cn: 'Title', uidt: 'SingleLineText', unique: true });
    expect(await catalogue('orders')).toEqual(['id', 'Title', 'qty']);
    expect(await viewParams('orders')).toEqual({ where: '(Title,neq,x)', sort: '-Title', fields: [{ cn: 'Title', show: true, width: 150 }, { cn: 'qty', show: false }] });
    expect((await rest('GET', `orders?view=${viewId}`)).body).toEqual([{ id: 2, Heading: 'b' }, { id: 1, Heading: 'a' }]);
    expect((await rest('POST', 'orders', { Heading: 'a', qty: 3 })).status).toBe(409);
  });

  test('a table renamed orders -> Orders keeps its rows, foreign key, display names and views; the migration rolls back and applies', async () => {
    // The rename is refused on servers that fold table names (unit-tested); this one keeps them as written.
    if (engine === 'mysql') expect(await lowerCaseTableNames(raw.driver)).toBe(0);
    const res = await op('tableRename', { tn: 'orders', newTn: 'Orders' });
    expect(res.table).toMatchObject({ tn: 'Orders', _tn: 'Order book' });
    expect(await tables()).toEqual(['Orders', 'line']);
    expect(await catalogue('Orders')).toEqual(['id', 'Title', 'qty']);
    expect(await catalogueTables()).toEqual(['Orders']);
    if (engine === 'sqlite') expect((await raw.driver.query<{ table: string }>({ sql: "SELECT \"table\" FROM pragma_foreign_key_list('line')", params: [] })).map((r) => r.table)).toEqual(['Orders']);
    const meta = await op('tableMeta', { tn: 'Orders' });
    expect(meta.columns.find((c: { cn: string }) => c.cn === 'Title')).toMatchObject({ _cn: 'Heading', unique: true });
    expect(meta.relations).toContainEqual(expect.objectContaining({ type: 'hm', table: 'Line', columns: ['orders_id'] }));
    expect((await op('tableMeta', { tn: 'line' })).relations).toContainEqual(expect.objectContaining({ type: 'bt', table: 'Order book' }));
    expect((await op('xcVirtualTableList', { tn: 'Orders' })).data.list.map((v: { title: string }) => v.title)).toEqual(['Grid view', 'By heading']);
    expect((await rest('GET', `Order book?view=${viewId}`)).body).toEqual([{ id: 2, Heading: 'b' }, { id: 1, Heading: 'a' }]);
    expect((await rest('POST', 'Order book', { Heading: 'a' })).status).toBe(409);
    expect((await rest('POST', 'line', { note: 'nowhere', orders_id: 99 })).status).toBe(409);
    expect((await rest('GET', 'line?sort=id&fields=note,orders_id')).body).toEqual([{ note: 'of a', orders_id: 1 }, { note: 'of b', orders_id: 2 }]);

    const [latest] = (await op('migrationList', {})).list;
    expect(latest.title).toBe("Rename table 'orders' to 'Orders'");
    await op('migrationRollback', { id: latest.id });
    expect(await tables()).toEqual(['line', 'orders']);
    expect(await catalogueTables()).toEqual(['orders']);
    expect(await op('tableMeta', { tn: 'orders' })).toMatchObject({ tn: 'orders', _tn: 'Order book' });
    await op('migrationApply', { id: latest.id });
    expect(await tables()).toEqual(['Orders', 'line']);
    expect((await rest('GET', 'Order book?sort=id&fields=Heading')).body).toEqual([{ Heading: 'a' }, { Heading: 'b' }]);
  });
});
