/**
 * Negated filters keep the rows without a value on every engine: `nin` and `nbtw` answer the rows
 * whose value is NULL, as `neq` and `nlike` do (SQL's NOT IN / NOT BETWEEN alone would drop them),
 * through the where language and the JSON condition alike.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, freshDatabase, runScript } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

const SCRIPT = `CREATE TABLE ticket (id INTEGER PRIMARY KEY, status VARCHAR(20), points INTEGER);
INSERT INTO ticket (id, status, points) VALUES (1, 'open', 1);
INSERT INTO ticket (id, status, points) VALUES (2, 'closed', 8);
INSERT INTO ticket (id, status, points) VALUES (3, NULL, NULL);
INSERT INTO ticket (id, status, points) VALUES (4, 'wontfix', 3);`;

describeEngines('nin and nbtw with rows without a value', (engine) => {
  const db = `tablo_t_wherenulls_${engine}`;
  let base = '';
  beforeAll(async () => {
    const cfg = await freshDatabase(engine, db);
    await runScript(engine, db, SCRIPT);
    base = `/nc/${await projectOver(t, token, engine, `Where nulls ${engine}`, cfg)}/api/v1`;
  });
  afterAll(async () => {
    await dropDatabase(engine, db);
  });

  const ids = async (query: string) => {
    const res = await t.request('GET', `${base}/Ticket?sort=id&${query}`, { headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    return (res.body as { Id: number }[]).map((r) => Number(r.Id));
  };
  const where = (w: string) => ids(`where=${encodeURIComponent(w)}`);
  const condition = (c: object) => ids(`condition=${encodeURIComponent(JSON.stringify(c))}`);

  test('neq and nlike keep the row without a status (the behaviour nin follows)', async () => {
    expect(await where('(Status,neq,open)')).toEqual([2, 3, 4]);
    expect(await where('(Status,nlike,%o%)')).toEqual([3]);
  });

  test('nin keeps the row without a status, in the where language and the JSON condition', async () => {
    expect(await where('(Status,nin,open,closed)')).toEqual([3, 4]);
    expect(await condition({ Status: { nin: ['open', 'closed'] } })).toEqual([3, 4]);
    // A null in the list is asked for by name: those rows are left out.
    expect(await condition({ Status: { nin: ['open', null] } })).toEqual([2, 4]);
    expect(await where('(Status,in,open,closed)')).toEqual([1, 2]);
  });

  test('nbtw keeps the row without points; btw does not', async () => {
    expect(await where('(Points,nbtw,2,5)')).toEqual([1, 2, 3]);
    expect(await condition({ Points: { nbtw: [2, 5] } })).toEqual([1, 2, 3]);
    expect(await where('(Points,btw,2,5)')).toEqual([4]);
  });

  test('the count agrees with the list', async () => {
    const res = await t.request('GET', `${base}/Ticket/count?where=${encodeURIComponent('(Status,nin,open)~and(Points,nbtw,7,9)')}`, { headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    expect(Number(res.body.count)).toBe(2);
  });
});
