/**
 * The REST fast write path answers exactly as the routes do: each write is sent once as the fast path
 * takes it and once with the table name escaped (`%47enre`, which it leaves to the routes), on rows of
 * their own, and the status, media type and body must match (ids aside). Also checks which requests
 * it takes and which it leaves to the routes untouched, that rights and the audit log hold on it, and
 * its request line, on SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { fastWrite } from '../../src/api/rest/fast-write';
import { memoryLogger } from '../../src/lib/log';
import { LIMITS } from '../../src/config/limits';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

type Answer = { status: number; type: string | null; body: unknown };
const answer = async (res: Response): Promise<Answer> => {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, type: res.headers.get('content-type'), body };
};

describeEngines('REST fast write path', (engine: TestEngine) => {
  const dbName = `tablo_t_fast_write_${engine}`;
  let id = '';
  beforeAll(async () => {
    id = await projectOver(t, token, engine, `Fast writes ${engine}`, await loadChinook(engine, dbName));
    // The caller and the project are now cached: the fast path can take the writes below.
    expect((await t.app.handle(new Request(`http://localhost/nc/${id}/api/v1/Genre?limit=1`, { headers: { 'xc-auth': token } }))).status).toBe(200);
  });
  afterAll(async () => dropDatabase(engine, dbName));

  const json = () => ({ 'xc-auth': token, 'content-type': 'application/json' });
  const request = (method: string, path: string, body?: string, headers: Record<string, string> = json()) =>
    new Request(`http://localhost/nc/${id}/api/v1${path}`, { method, headers, body });
  /** The same write through both roads: the fast one on `fastPath`, the routes on `routedPath` (table name escaped). */
  const both = async (method: string, fastPath: string, routedPath: string, fastBody?: string, routedBody?: string) => {
    expect(routedPath.startsWith('/Genre')).toBe(true);
    const fast = await answer(await t.app.handle(request(method, fastPath, fastBody)));
    const routed = await answer(await t.app.handle(request(method, routedPath.replace('/Genre', '/%47enre'), routedBody ?? fastBody)));
    return { fast, routed };
  };
  const withoutId = (a: Answer) => ({ ...a, body: a.body && typeof a.body === 'object' && !Array.isArray(a.body) ? { ...a.body, GenreId: 0 } : a.body });

  test('create, update and delete one row: the same answers as the routes', async () => {
    const created = await both('POST', '/Genre', '/Genre', JSON.stringify({ GenreId: 9001, Name: 'Fast' }), JSON.stringify({ GenreId: 9002, Name: 'Fast' }));
    expect(created.fast.status).toBe(200);
    expect(created.fast.body).toEqual({ GenreId: 9001, Name: 'Fast' });
    expect(withoutId(created.fast)).toEqual(withoutId(created.routed));

    const updated = await both('PUT', '/Genre/9001', '/Genre/9002', JSON.stringify({ Name: 'Faster' }));
    expect(updated.fast.body).toEqual({ GenreId: 9001, Name: 'Faster' });
    expect(withoutId(updated.fast)).toEqual(withoutId(updated.routed));

    const deleted = await both('DELETE', '/Genre/9001', '/Genre/9002');
    expect(deleted.fast).toEqual({ status: 200, type: deleted.routed.type, body: 1 });
    expect(deleted.fast).toEqual(deleted.routed);
    const gone = await t.app.handle(new Request(`http://localhost/nc/${id}/api/v1/Genre/9001`, { headers: { 'xc-auth': token } }));
    expect(gone.status).toBe(404);
  });

  test('bulk create, update and delete: the same answers as the routes', async () => {
    const rows = (from: number) => JSON.stringify([{ GenreId: from, Name: 'Bulk a' }, { GenreId: from + 1, Name: 'Bulk b' }]);
    const created = await both('POST', '/Genre/bulk', '/Genre/bulk', rows(9101), rows(9201));
    expect(created.fast.status).toBe(200);
    expect(created.fast.body).toEqual(['9101', '9102']);
    expect(created.routed.body).toEqual(['9201', '9202']);
    expect(created.fast.type).toBe(created.routed.type);
    const updates = (from: number) => JSON.stringify([{ GenreId: from, Name: 'Bulk c' }, { GenreId: from + 1, Name: 'Bulk d' }]);
    const updated = await both('PUT', '/Genre/bulk', '/Genre/bulk', updates(9101), updates(9201));
    expect(updated.fast).toEqual({ status: 200, type: updated.routed.type, body: 2 });
    expect(updated.fast).toEqual(updated.routed);
    const deleted = await both('DELETE', '/Genre/bulk', '/Genre/bulk', JSON.stringify([{ GenreId: 9101 }, '9102']), JSON.stringify([{ GenreId: 9201 }, '9202']));
    expect(deleted.fast).toEqual(deleted.routed);
    expect(deleted.fast.body).toBe(2);
  });

  const errors: [string, string, string, string | undefined][] = [
    ['an unknown column', 'POST', '/Genre', JSON.stringify({ GenreId: 9301, Nope: 1 })],
    ['a body that is not JSON', 'POST', '/Genre', '{"GenreId": 93'],
    ['an empty body', 'POST', '/Genre', ''],
    ['a body that is an array', 'POST', '/Genre', '[1, 2]'],
    ['JSON nested too deep', 'POST', '/Genre', '['.repeat(200) + ']'.repeat(200)],
    ['a duplicate key', 'POST', '/Genre', JSON.stringify({ GenreId: 1, Name: 'Rock again' })],
    ['an update of a row that does not exist', 'PUT', '/Genre/987654', JSON.stringify({ Name: 'x' })],
    ['an update with nothing to set', 'PUT', '/Genre/1', '{}'],
    ['a delete of a row that does not exist', 'DELETE', '/Genre/987654', undefined],
    ['a bulk body that is not an array', 'POST', '/Genre/bulk', '{}'],
    ['a bulk row with a bad column', 'POST', '/Genre/bulk', JSON.stringify([{ GenreId: 9401, Name: 'ok' }, { GenreId: 9402, Nope: 1 }])],
  ];
  for (const [name, method, path, body] of errors) {
    test(`the same error as the routes: ${name}`, async () => {
      const { fast, routed } = await both(method, path, path, body);
      expect(fast.status).toBeGreaterThanOrEqual(400);
      expect(fast.status).not.toBe(401);
      expect(fast.status).toBeLessThan(500);
      expect((fast.body as { msg?: string }).msg).toBeString();
      expect(fast).toEqual(routed);
    });
  }
  test('a refused bulk call writes nothing', async () => {
    const res = await t.app.handle(new Request(`http://localhost/nc/${id}/api/v1/Genre/9401`, { headers: { 'xc-auth': token } }));
    expect(res.status).toBe(404);
  });

  test('takes plain writes of cached callers and leaves everything else to the routes, untouched', async () => {
    const road = fastWrite(t.app.ctx, memoryLogger(), false);
    const body = JSON.stringify({ GenreId: 9501, Name: 'Taken' });
    // The caller is cached by a read just before (a slow machine may have let an earlier entry expire).
    expect((await t.app.handle(request('GET', '/Genre?limit=1'))).status).toBe(200);
    const taken = road(request('POST', '/Genre', body));
    expect(taken).toBeInstanceOf(Promise);
    expect((await taken!).status).toBe(200);
    // Cached again: under load the write above may have outlasted the entry of the read.
    expect((await t.app.handle(request('GET', '/Genre?limit=1'))).status).toBe(200);
    expect(road(request('DELETE', '/Genre/9501'))).toBeInstanceOf(Promise);
    const left = [
      request('POST', '/Genre?x=1', body), // a query string
      request('POST', '/Genre', body, { 'xc-auth': token, 'content-type': 'text/plain' }), // not JSON
      request('POST', '/Genre', body, { 'xc-auth': token, 'content-type': 'application/vnd.api+json' }),
      request('POST', '/Genre', body, { 'content-type': 'application/json' }), // no caller
      request('POST', '/Genres', body), // no such table
      request('POST', '/%47enre', body), // an escape
      request('POST', '/Genre/1/Track', body), // a relation route
      request('PUT', '/Genre/count', body), // a route of its own
      request('GET', '/Genre/1'),
      request('PATCH', '/Genre/1', body),
      request('DELETE', '/Genre/1', body), // a body on a delete of one row
    ];
    // A body over the limit, sent in chunks: 413 as the routes answer it.
    const big = JSON.stringify({ GenreId: 9502, Name: 'x'.repeat(LIMITS.bodyLimitBytes) });
    const chunked = () => new Request(`http://localhost/nc/${id}/api/v1/Genre`, { method: 'POST', headers: json(), body: new Blob([big]).stream() });
    // Cached again just before: on a loaded machine the entry of the read above may have expired
    // meanwhile, and even this one before the call (a few tries; the fast path must take it in the end).
    let taking: Promise<Response> | undefined;
    for (let attempt = 0; attempt < 5 && !taking; attempt++) {
      expect((await t.app.handle(request('GET', '/Genre?limit=1'))).status).toBe(200);
      taking = road(chunked());
    }
    expect(taking).toBeInstanceOf(Promise);
    expect(await answer(await taking!)).toEqual(await answer(await t.app.handle(chunked())));
    for (const r of left) {
      expect(road(r)).toBeUndefined();
      expect(r.bodyUsed).toBe(false);
    }
  });

  test('holds the rights: a viewer token may not write on it either', async () => {
    const made = await dashboardOp(t, token, 'xcApiTokenCreate', { project_id: id, args: { description: 'viewer', role: 'viewer' } });
    const viewer = made.body.token as string;
    const headers = { 'xc-token': viewer, 'content-type': 'application/json' };
    // Cache the token's caller with a read, then write through the fast path.
    expect((await t.app.handle(request('GET', '/Genre?limit=1', undefined, { 'xc-token': viewer }))).status).toBe(200);
    const road = fastWrite(t.app.ctx, memoryLogger(), false);
    const res = road(request('POST', '/Genre', JSON.stringify({ GenreId: 9601, Name: 'No' }), headers));
    expect(res).toBeInstanceOf(Promise);
    const a = await answer(await res!);
    expect(a.status).toBe(403);
    const routed = await answer(await t.app.handle(request('POST', '/%47enre', JSON.stringify({ GenreId: 9601, Name: 'No' }), headers)));
    expect(a).toEqual(routed);
  });

  test('its writes reach the audit log and the request log', async () => {
    const log = memoryLogger();
    const road = fastWrite(t.app.ctx, log, true);
    // The caller is held in the caches for a short while only: a read puts it back (a slow machine may have let it go).
    expect((await t.app.handle(request('GET', '/Genre?limit=1', undefined, { 'xc-auth': token }))).status).toBe(200);
    const res = await road(request('POST', '/Genre', JSON.stringify({ GenreId: 9701, Name: 'Logged' })))!;
    expect(res.status).toBe(200);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(new RegExp(`^INFO POST /nc/${id}/api/v1/Genre 200 \\d+\\.\\dms$`));
    const rows = await t.app.ctx.meta.all<{ pk: string; description: string }>(`SELECT pk, description FROM nc_audit WHERE op_type = 'DATA' AND project_id = ? AND pk = ?`, [id, '9701']);
    expect(rows).toEqual([{ pk: '9701', description: 'insert' }]);
  });
});
