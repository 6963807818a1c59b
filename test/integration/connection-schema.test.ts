/**
 * The Schema field of the external database form (PostgreSQL): a schema that does not exist fails
 * Test Database Connection and Save with a message naming it, instead of a project with no tables;
 * with 'create database if not exists' saving creates it; an existing schema opens its tables, also
 * one whose name has capitals, spaces or quotes, and the SQL Client finds its tables unqualified.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import postgres from 'postgres';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { PG, dbName, describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines(
  'the schema of a connection',
  () => {
    const db = 'tablo_t_conn_schema';
    const conn = (schema: string, createIfNotExists = false) => ({
      client: 'pg',
      connection: { host: PG.host, port: PG.port, user: PG.user, password: '', database: dbName(db), schema },
      createIfNotExists,
    });
    const op = (api: string, args: unknown) => dashboardOp(t, token, api, { args });

    beforeAll(async () => {
      await freshDatabase('pg', db);
      await runScript('pg', db, `CREATE SCHEMA sales; CREATE TABLE sales.deal (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO sales.deal VALUES (1, 'first');`);
    });
    afterAll(async () => dropDatabase('pg', db));

    test('a schema that does not exist fails the test and the save, naming it', async () => {
      const msg = `The schema 'nosuch' does not exist in the database '${dbName(db)}'`;
      expect((await op('testConnection', { db: conn('nosuch') })).body).toEqual({ msg });
      const saved = await op('projectCreateByWeb', { title: 'No such schema', db: conn('nosuch') });
      expect(saved.status).toBe(400);
      expect(saved.body).toEqual({ msg });
      const titles = (await op('PROJECT_READ_BY_WEB', {})).body.data.list.map((p: { title: string }) => p.title);
      expect(titles).not.toContain('No such schema');
    });

    test('an existing schema and the default one test and open their tables', async () => {
      expect((await op('testConnection', { db: conn('sales') })).body).toEqual({ ok: true });
      expect((await op('testConnection', { db: conn('public') })).body).toEqual({ ok: true });
      const id = (await op('projectCreateByWeb', { title: 'Sales schema', db: conn('sales') })).body.id;
      expect((await t.request('GET', `/nc/${id}/api/v1/Deal`, { headers: { 'xc-auth': token } })).body).toEqual([{ Id: 1, Name: 'first' }]);
    });

    test('a schema named with capitals, spaces or a quote opens, and the SQL Client finds its tables unqualified', async () => {
      await runScript('pg', db, `CREATE SCHEMA "Sales Team"; CREATE TABLE "Sales Team".lead (id INTEGER PRIMARY KEY); INSERT INTO "Sales Team".lead VALUES (5);
        CREATE SCHEMA "CamelCase"; CREATE TABLE "CamelCase".lead (id INTEGER PRIMARY KEY); INSERT INTO "CamelCase".lead VALUES (6);
        CREATE SCHEMA "it""s"; CREATE TABLE "it""s".lead (id INTEGER PRIMARY KEY); INSERT INTO "it""s".lead VALUES (7);`);
      for (const [schema, id] of [['Sales Team', 5], ['CamelCase', 6], ['it"s', 7]] as const) {
        expect((await op('testConnection', { db: conn(schema) })).body).toEqual({ ok: true });
        const made = await op('projectCreateByWeb', { title: `Schema ${schema}`, db: conn(schema) });
        expect(made.status).toBe(200);
        const pid = made.body.id;
        expect((await t.request('GET', `/nc/${pid}/api/v1/Lead`, { headers: { 'xc-auth': token } })).body).toEqual([{ Id: id }]);
        const raw = await dashboardOp(t, token, 'rawSql', { project_id: pid, args: { sql: 'SELECT id FROM lead' } });
        expect(raw.body.rows).toEqual([{ id }]);
      }
    });

    test("'create database if not exists' tests a missing schema as fine and saving creates it", async () => {
      expect((await op('testConnection', { db: conn('made_here', true) })).body).toEqual({ ok: true });
      const made = await op('projectCreateByWeb', { title: 'Made schema', db: conn('made_here', true) });
      expect(made.status).toBe(200);
      const titles = (await op('PROJECT_READ_BY_WEB', {})).body.data.list.map((p: { title: string }) => p.title);
      expect(titles).toContain('Made schema');
      const sql = postgres({ ...PG, database: dbName(db), max: 1 });
      try {
        expect(await sql`SELECT nspname FROM pg_namespace WHERE nspname = 'made_here'`).toHaveLength(1);
      } finally {
        await sql.end();
      }
    });
  },
  ['pg'],
);
