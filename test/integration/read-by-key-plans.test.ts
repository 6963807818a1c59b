/**
 * Reads by id share one read plan per request shape: the id's values are bound into the plan at
 * each read, so every id answers its own row (composite keys, text keys, missing rows, bad ids)
 * while the table model holds a single plan for them.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { plansHeld } from '../../src/data/read-plans';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

describeEngines('reads by id share a plan', (engine: TestEngine) => {
  const name = `tablo_t_readplans_${engine}`;
  let id = '';
  beforeAll(async () => {
    id = await projectOver(t, token, engine, `Read plans ${engine}`, await loadChinook(engine, name));
  });
  afterAll(async () => dropDatabase(engine, name));

  const get = (path: string) => t.request('GET', `/nc/${id}/api/v1${path}`, { headers: { 'xc-auth': token } });
  const model = async (tn: string) => (await t.app.ctx.projects.get(id, 'db')).model.tables.find((m) => m._tn === tn)!;

  test('many ids, one plan, each its own row', async () => {
    for (const n of [1, 2, 3, 150, 347]) {
      const r = await get(`/Album/${n}`);
      expect(r.status).toBe(200);
      expect(r.body.AlbumId).toBe(n);
    }
    expect((await get('/Album/4?fields=Title')).body).toEqual({ Title: 'Let There Be Rock' });
    expect((await get('/Album/5?fields=Title')).body).toEqual({ Title: 'Big Ones' });
    // One plan for all plain reads by id, one for the `fields=Title` shape.
    expect(plansHeld(await model('Album'))).toBe(2);
    expect((await get('/Album/999999')).status).toBe(404);
    expect((await get('/Album/abc')).status).toBe(400);
  });

  test('composite keys bind each part', async () => {
    const a = await get('/PlaylistTrack/1___3402');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ PlaylistId: 1, TrackId: 3402 });
    const b = await get('/PlaylistTrack/8___3');
    expect(b.body).toMatchObject({ PlaylistId: 8, TrackId: 3 });
    expect(plansHeld(await model('PlaylistTrack'))).toBe(1);
    expect((await get('/PlaylistTrack/2___1')).status).toBe(404);
    expect((await get('/PlaylistTrack/1')).status).toBe(400);
  });
});
