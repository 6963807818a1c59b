/**
 * The REST fast path answers exactly as the routes do: each request is sent once as the fast path
 * takes it and once with the table name escaped (`%41lbum`, which it leaves to the routes), and the
 * status, media type and body must match. Also checks which requests it answers itself and which it
 * hands back, on PostgreSQL and SQLite.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { fastRest } from '../../src/api/rest/fast-path';
import { memoryLogger } from '../../src/lib/log';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

/** Status, media type and body (parsed: on PostgreSQL nested relations may arrive in either order). */
const answer = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), body: JSON.parse(await res.text()) as unknown });

describeEngines(
  'REST fast path',
  (engine: TestEngine) => {
    const dbName = `tablo_t_perf3_rest_${engine}`;
    let id = '';
    beforeAll(async () => {
      const cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'perf3-rest.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'perf3-rest.sqlite' };
      }
      id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Fast REST ${engine}`, db: { client: engine, connection } } })).body.id;
    });
    afterAll(async () => dropDatabase(engine, dbName));

    const request = (path: string, headers: Record<string, string> = { 'xc-auth': token }) => new Request(`http://localhost/nc/${id}/api/v1${path}`, { headers });
    /** The same read through both roads: as given (fast path) and with the table name escaped (routes). */
    const both = async (path: string) => {
      expect(path.startsWith('/Album')).toBe(true);
      const fast = await answer(await t.app.handle(request(path)));
      const routed = await answer(await t.app.handle(request(path.replace('/Album', '/%41lbum'))));
      return { fast, routed };
    };

    const cases: [string, string][] = [
      ['a list without parameters', '/Album'],
      ['a page, sorted and filtered', '/Album?limit=5&offset=3&sort=-AlbumId&where=(ArtistId,lt,50)'],
      ['chosen fields', '/Album?fields=Title,AlbumId&limit=3'],
      ['nested belongs-to and has-many', '/Album?limit=4&bt=Artist&hm=Track'],
      ['one row', '/Album/3'],
      ['one row with a relation', '/Album/3?hm=Track&fields=Title'],
      ['a row that does not exist', '/Album/999999'],
      ['an unknown table', '/Albums'],
      ['an unknown column in a filter', '/Album?where=(Nope,eq,1)'],
      ['a limit that is not a number', '/Album?limit=many'],
      ['an empty value', '/Album?sort=&limit=2'],
    ];
    for (const [name, path] of cases) {
      test(`same answer as the routes: ${name}`, async () => {
        const { fast, routed } = await both(path);
        expect(fast).toEqual(routed);
      });
    }

    test('answers plain reads itself and hands back everything else', async () => {
      const fastRoad = fastRest(t.app.ctx, memoryLogger(), false);
      // What the fast path hands to the routes is marked, to tell it from its own answers.
      const fast = (r: Request) => fastRoad(r, async () => new Response('routed', { status: 599 }));
      await t.app.handle(request('/Album?limit=1')); // the caller and the project are now cached
      const ok = await fast(request('/Album?limit=1&sort=AlbumId&fields=AlbumId,Title'));
      expect(ok).toBeInstanceOf(Response);
      expect(await ok!.json()).toEqual([{ AlbumId: 1, Title: 'For Those About To Rock We Salute You' }]);
      expect(await fast(request('/Album/1?fields=Title'))!.then((r) => r!.json())).toEqual({ Title: 'For Those About To Rock We Salute You' });

      expect((await fast(request('/Album/999999')))!.status).toBe(599); // a 404 of the routes
      expect(fast(request('/Nope'))).toBeUndefined();
      expect(fast(request('/Album/count'))).toBeUndefined();
      expect(fast(request('/Album/1/Track'))).toBeUndefined();
      expect(fast(request('/Album?where=%28AlbumId%2Ceq%2C1%29'))).toBeUndefined();
      expect(fast(request('/Album?limit=1&limit=2'))).toBeUndefined();
      expect(fast(request('/Album?limit'))).toBeUndefined();
      expect(fast(request('/Album', {}))).toBeUndefined(); // no caller
      expect(fast(new Request(`http://localhost/nc/${id}/api/v1/Album`, { method: 'POST', headers: { 'xc-auth': token }, body: '{}' }))).toBeUndefined();
      expect((await t.app.handle(request('/Album', {}))).status).toBe(401);
    });

    test('writes the same request line as the app when requests are logged', async () => {
      const log = memoryLogger();
      const res = await fastRest(t.app.ctx, log, true)(request('/Album/2'), async () => new Response(null, { status: 599 }));
      expect(res?.status).toBe(200);
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]).toMatch(new RegExp(`^INFO GET /nc/${id}/api/v1/Album/2 200 \\d+\\.\\dms$`));
    });
  },
  ['sqlite', 'pg'],
);
