/**
 * Values written the way the grid and the expanded row write them, per engine (SQLite, PostgreSQL,
 * MariaDB): each is stored as given (read back through the REST API and through SQL) or refused
 * with a 400 that names the column.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { dbName, describeEngines, dropDatabase, freshDatabase, runScript, type TestEngine } from '../helpers/engines';
import { openDatabase } from '../../src/sql/open-database';
import type { Database } from '../../src/sql/dialect';

setDefaultTimeout(30_000);

describeEngines('cell values', (engine: TestEngine) => {
  const name = `tablo_t_cellvals_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;
  let db: Database;

  const op = async (api: string, args: unknown) => {
    const res = await dashboardOp(t, token, api, { project_id: projectId, args, plus: true });
    if (res.status !== 200) throw new Error(`${api}: expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };
  const rest = (method: string, path: string, body?: unknown) => t.request(method, `/nc/${projectId}/api/v1/${path}`, { body, headers: { 'xc-auth': token } });
  /** One value of a row straight from the database (the product's driver, plain SQL). */
  const sqlValue = async (expr: string, id: number, table = 'item') => {
    const q = (s: string) => db.dialect.quoteId(s);
    const rows = await db.driver.query<{ v: unknown }>({ sql: `SELECT ${expr} AS v FROM ${q(table)} WHERE ${q('id')} = ${engine === 'pg' ? '$1' : '?'}`, params: [id] });
    return rows[0]?.v;
  };
  /** A table with a date-time column that holds an instant (timestamptz, MySQL's TIMESTAMP). */
  const EVENT_TABLE: Record<string, string> = {
    // A database whose sessions start in another zone than UTC.
    pg: `ALTER DATABASE "${dbName(name)}" SET timezone = 'America/New_York'; CREATE TABLE ev (id serial PRIMARY KEY, at timestamptz)`,
    mysql: 'CREATE TABLE ev (id int AUTO_INCREMENT PRIMARY KEY, at timestamp NULL, f float NULL, b bit(1) NULL)',
    sqlite: 'CREATE TABLE ev (id integer PRIMARY KEY, at datetime)',
  };

  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    const cfg = await freshDatabase(engine, name);
    await runScript(engine, name, EVENT_TABLE[engine]!);
    await runScript(engine, name, `CREATE TABLE price (id ${engine === 'pg' ? 'serial' : engine === 'mysql' ? 'int AUTO_INCREMENT' : 'integer'} PRIMARY KEY, amount numeric(6,2))`);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Cells ${engine}`, inflectionColumn: 'none', db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    projectId = res.body.id;
    await op('tableCreate', { tn: 'item', _tn: 'Item' });
    await op('columnAdd', { tn: 'item', column: { cn: 'data', uidt: 'JSON' } });
    db = await openDatabase(engine === 'sqlite' ? { client: 'sqlite', connection: { filename: join(t.dataDir, `${name}.sqlite`) } } : cfg);
  });
  afterAll(async () => {
    await db?.driver.close();
    await t.close();
    await dropDatabase(engine, name);
  });

  test('JSON: an object is stored as an object and a JSON string as a string (not as text of JSON, nor read as its content)', async () => {
    const typeOf = engine === 'pg' ? 'jsonb_typeof' : engine === 'mysql' ? 'JSON_TYPE' : 'json_type';
    const made = await rest('POST', 'Item', { title: 'json', data: '{"b":1,"a":[2]}' });
    expect(made.status).toBe(200);
    const id = made.body.id as number;
    expect((await rest('GET', `Item/${id}`)).body.data).toEqual({ b: 1, a: [2] });
    expect(String(await sqlValue(`${typeOf}(${db.dialect.quoteId('data')})`, id)).toLowerCase()).toBe('object');
    // A group of the grid over the JSON column picks the row by its value written as JSON text.
    const group = await rest('GET', `Item?where=${encodeURIComponent('(data,eq,{"b":1,"a":[2]})')}`);
    expect(group.status).toBe(200);
    expect(group.body.map((r: { id: number }) => r.id)).toContain(id);

    // A JSON string whose content is itself JSON stays a string.
    for (const text of ['"123"', '"true"', '"{\\"a\\":1}"']) {
      expect((await rest('PUT', `Item/${id}`, { data: text })).status).toBe(200);
      expect((await rest('GET', `Item/${id}`)).body.data).toBe(JSON.parse(text));
      // SQLite names a JSON string 'text'.
      expect(String(await sqlValue(`${typeOf}(${db.dialect.quoteId('data')})`, id)).toLowerCase()).toBe(engine === 'sqlite' ? 'text' : 'string');
    }
    // A value written as JSON (not as its text) as well.
    expect((await rest('PUT', `Item/${id}`, { data: { n: 1 } })).status).toBe(200);
    expect((await rest('GET', `Item/${id}`)).body.data).toEqual({ n: 1 });
    expect(String(await sqlValue(`${typeOf}(${db.dialect.quoteId('data')})`, id)).toLowerCase()).toBe('object');
  });

  test('a decimal with more digits before the point than its column holds is refused naming the column, on every engine', async () => {
    const made = await rest('POST', 'Price', { amount: 1234.5 });
    expect(made.status).toBe(200);
    expect((await rest('GET', `Price/${made.body.id}`)).body.amount).toBe(1234.5);
    expect((await rest('PUT', `Price/${made.body.id}`, { amount: '-9999.99' })).status).toBe(200);
    const refused: [unknown, string][] = [
      [12345, 'Column \'amount\': 12345 is out of range: at most 4 digits before the decimal point'],
      // Rounded to its two places, 9999.999 is 10000.00.
      ['9999.999', 'Column \'amount\': "9999.999" is out of range: at most 4 digits before the decimal point'],
      ['-1e5', 'at most 4 digits'],
    ];
    for (const [amount, msg] of refused) {
      for (const res of [await rest('POST', 'Price', { amount }), await rest('PUT', `Price/${made.body.id}`, { amount })]) {
        expect([res.status, res.body.msg]).toEqual([400, expect.stringContaining(msg)]);
      }
    }
    expect((await rest('GET', `Price/${made.body.id}`)).body.amount).toBe(-9999.99);
    // A filter may still compare with a number the column could not hold.
    const below = await rest('GET', `Price?where=${encodeURIComponent('(amount,lt,100000)')}`);
    expect(below.status).toBe(200);
    expect((below.body as { amount: number }[]).map((r) => r.amount)).toContain(-9999.99);
  });

  test('a decimal with more places than its column keeps is rounded to them, half away from zero, on every engine', async () => {
    for (const [amount, kept] of [[12.345, 12.35], ['0.125', 0.13], [-1.005, -1.01], ['-0.004', 0], [2.675, 2.68], ['99.995', 100], [7.1, 7.1]] as const) {
      const made = await rest('POST', 'Price', { amount });
      expect([made.status, made.body.amount]).toEqual([200, kept]);
      expect(Number(await sqlValue('amount', made.body.id, 'price'))).toBe(kept);
      const changed = await rest('PUT', `Price/${made.body.id}`, { amount });
      expect([changed.status, changed.body.amount]).toEqual([200, kept]);
    }
  });

  test('a date-time given with a zone is stored as that instant, and read back in UTC, whatever zone the database is set to', async () => {
    const made = await rest('POST', 'Ev', { at: '2024-03-10T12:30:00+02:00' });
    expect(made.status).toBe(200);
    expect(made.body.at).toBe('2024-03-10 10:30:00');
    const epoch = engine === 'pg' ? 'EXTRACT(EPOCH FROM at)' : engine === 'mysql' ? 'UNIX_TIMESTAMP(at)' : "strftime('%s', at)";
    expect(Number(await sqlValue(epoch, made.body.id, 'ev'))).toBe(Date.UTC(2024, 2, 10, 10, 30) / 1000);
    // A value without a zone is UTC as well, and a filter finds the row by its instant.
    const plain = await rest('POST', 'Ev', { at: '2024-03-10 10:30:00' });
    expect(Number(await sqlValue(epoch, plain.body.id, 'ev'))).toBe(Date.UTC(2024, 2, 10, 10, 30) / 1000);
    const found = await rest('GET', `Ev?where=${encodeURIComponent('(at,eq,2024-03-10T10:30:00Z)')}`);
    expect(found.body.map((r: { id: number }) => r.id)).toEqual([made.body.id, plain.body.id]);
    if (engine === 'mysql') expect(await db.driver.query({ sql: 'SELECT @@session.time_zone AS tz', params: [] })).toEqual([{ tz: '+00:00' }]);
  });

  if (engine === 'mysql') {
    test('MySQL: a FLOAT reads as typed (1.1, not 1.100000023841858) and a BIT(1) checkbox as ticked', async () => {
      const made = await rest('POST', 'Ev', { f: 1.1, b: true });
      expect(made.status).toBe(200);
      expect([made.body.f, made.body.b]).toEqual([1.1, true]);
      const list = await rest('GET', `Ev?where=${encodeURIComponent(`(id,eq,${made.body.id})`)}`);
      expect([list.body[0].f, list.body[0].b]).toEqual([1.1, true]);
      expect((await rest('PUT', `Ev/${made.body.id}`, { f: '0.3', b: false })).body).toMatchObject({ f: 0.3, b: false });
    });
  }
});

describeEngines('contains: the text\'s own % and _ are literal', (engine: TestEngine) => {
  const name = `tablo_t_likelit_${engine}`;
  let t: TestApp;
  let token: string;
  let projectId: string;
  beforeAll(async () => {
    t = await makeTestApp();
    token = (await signupSuperAdmin(t)).token;
    const cfg = await freshDatabase(engine, name);
    await runScript(engine, name, `CREATE TABLE item (id ${engine === 'pg' ? 'serial' : engine === 'mysql' ? 'int AUTO_INCREMENT' : 'integer'} PRIMARY KEY, title varchar(50));
INSERT INTO item (title) VALUES ('50% off'), ('500 off'), ('a_b'), ('axb'), (${engine === 'mysql' ? "'back\\\\slash'" : "'back\\slash'"}), ('plain');`);
    projectId = await projectOver(t, token, engine, `Like ${engine}`, cfg, { inflectionColumn: 'none' });
  });
  afterAll(async () => {
    await t.close();
    await dropDatabase(engine, name);
  });
  const titles = async (where: string) => {
    const r = await t.request('GET', `/nc/${projectId}/api/v1/item?sort=id&where=${encodeURIComponent(where)}`, { headers: { 'xc-auth': token } });
    expect(r.status).toBe(200);
    return r.body.map((x: { title: string }) => x.title);
  };

  test('a backslash makes %, _ and itself literal; a bare % is still a wildcard', async () => {
    expect(await titles('(title,like,%50\\%%)')).toEqual(['50% off']);
    expect(await titles('(title,like,%a\\_b%)')).toEqual(['a_b']);
    expect(await titles('(title,like,%k\\\\s%)')).toEqual(['back\\slash']);
    expect(await titles('(title,like,%50%)')).toEqual(['50% off', '500 off']);
    expect(await titles('(title,like,a_b)')).toEqual(['a_b', 'axb']);
    expect(await titles('(title,nlike,%\\%%)')).toEqual(['500 off', 'a_b', 'axb', 'back\\slash', 'plain']);
  });
});
