/**
 * The Host field of the external database form: a connection URL pasted into it is a 400 that says
 * what a host is (it reached the driver and answered 500), never echoing the URL (it may hold a
 * password); spaces around a host are dropped.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { PG, dbName, dropDatabase, freshDatabase } from '../helpers/engines';

let t: TestApp;
let token: string;
const DB = 'tablo_t_conn_host';
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
  await freshDatabase('pg', DB);
});
afterAll(async () => {
  await t.close();
  await dropDatabase('pg', DB);
});

const conn = (host: string) => ({ client: 'pg', connection: { host, port: PG.port, user: PG.user, password: PG.password, database: dbName(DB) } });
const MSG = 'Invalid database connection: the host is a name or an address, such as db.example.com or 10.0.0.5, not a URL';

test('a connection URL in the host field is a 400 saying what a host is, for the test and the save', async () => {
  for (const host of [`postgres://postgres:s3cret@${PG.host}:${PG.port}/${dbName(DB)}`, `${PG.host}/${dbName(DB)}`, `postgres@${PG.host}`, 'db host']) {
    const tested = await dashboardOp(t, token, 'testConnection', { args: { db: conn(host) } });
    expect(tested.status).toBe(400);
    expect(tested.body).toEqual({ msg: MSG });
    const saved = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'From a URL', db: conn(host) } });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).not.toContain('s3cret');
  }
});

test('names and addresses connect; spaces around the host are dropped', async () => {
  for (const host of [PG.host, ` ${PG.host} `, 'localhost', `${PG.host}:${PG.port}`]) {
    expect((await dashboardOp(t, token, 'testConnection', { args: { db: conn(host) } })).body).toEqual({ ok: true });
  }
});
