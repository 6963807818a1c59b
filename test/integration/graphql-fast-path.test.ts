/**
 * The GraphQL fast path answers exactly as graphql-yoga does: the same request is sent once as the
 * fast path takes it (no Accept header) and once with an Accept header it leaves to yoga, and the
 * status, media type, CORS headers and body must match. Also checks which requests it answers
 * itself and which it hands back, on PostgreSQL and SQLite.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp, projectOver } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';
import { dataContext } from '../../src/api/rest/context';
import { buildGraphqlSchema } from '../../src/api/graphql/schema-builder';
import { fastGraphql } from '../../src/api/graphql/fast-path';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

/** Same call through both roads: no Accept (fast path) and an Accept header only yoga handles. */
async function both(projectId: string, body: unknown, headers: Record<string, string> = {}) {
  const send = async (extra: Record<string, string>) => {
    const res = await t.app.handle(
      new Request(`http://localhost/nc/${projectId}/v1/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'xc-auth': token, ...headers, ...extra },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    const h = Object.fromEntries([...res.headers].filter(([k]) => k === 'content-type' || k.startsWith('access-control') || k === 'vary'));
    return { status: res.status, headers: h, body: await res.text() };
  };
  return { fast: await send({}), yoga: await send({ accept: 'application/json, */*' }) };
}

describeEngines(
  'GraphQL fast path',
  (engine: TestEngine) => {
    const dbName = `tablo_t_perf_gql_${engine}`;
    let id = '';
    let cfg: Awaited<ReturnType<typeof loadChinook>>;
    beforeAll(async () => {
      cfg = await loadChinook(engine, dbName);
      let connection = cfg.connection as Record<string, unknown>;
      if (engine === 'sqlite') {
        await Bun.write(join(t.dataDir, 'perf-gql.sqlite'), Bun.file(cfg.connection.filename!));
        connection = { filename: 'perf-gql.sqlite' };
      }
      id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Fast ${engine}`, projectType: 'graphql', db: { client: engine, connection } } })).body.id;
    });
    afterAll(async () => dropDatabase(engine, dbName));

    const cases: [string, unknown, Record<string, string>?][] = [
      ['a list with nested relations, fragments and variables', {
        query: `query A($n: Int) { AlbumList(limit: $n, sort: "-AlbumId") { ...F ArtistRead { Name } TrackList(limit: 2) { TrackId Name } TrackCount } }
                fragment F on Album { AlbumId Title }
                query B { TrackRead(id: "1") { TrackId Name Milliseconds UnitPrice } }`,
        variables: { n: 3 },
        operationName: 'A',
      }],
      ['the second operation of a document', { query: 'query A { ArtistList(limit: 1) { Name } } query B { TrackRead(id: "1") { TrackId Name UnitPrice } }', operationName: 'B' }],
      ['a caller from another origin', { query: '{ ArtistList(limit: 2) { ArtistId Name } }' }, { origin: 'http://example.com' }],
      ['an unknown field (validation error)', { query: '{ ArtistList { Nope } }' }],
      ['a filter on an unknown column (error while running)', { query: '{ ArtistList(where: "(Nope,eq,1)") { Name } }' }],
      ['a row that does not exist', { query: '{ TrackRead(id: "999999") { Name } }' }],
      ['a variable of the wrong type', { query: 'query ($n: Int) { ArtistList(limit: $n) { Name } }', variables: { n: 'many' } }],
      ['a query over the cost limit', { query: '{ AlbumList(limit: 1000) { TrackList(limit: 1000) { Name } } }' }],
      ['an unexpected parameter', { query: '{ ArtistList(limit: 1) { Name } }', extra: 1 }],
      ['a body that is not JSON', '{ query'],
    ];
    for (const [name, body, headers] of cases) {
      test(`same answer as yoga: ${name}`, async () => {
        const { fast, yoga } = await both(id, body, headers);
        expect(fast).toEqual(yoga);
      });
    }

    test('answers plain queries itself and hands back mutations, invalid documents and other media types', async () => {
      const request = (body: unknown, headers: Record<string, string> = {}) =>
        new Request(`http://localhost/nc/${id}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': token, ...headers }, body: JSON.stringify(body) });
      const dc = await dataContext(t.app.ctx, request({}), id);
      const fast = fastGraphql(buildGraphqlSchema(dc.pdb.model, dc.pdb.db.dialect.engine), t.config.queryLimitMax);
      const run = (r: Request) => fast.handle(r, dc);

      const ok = await run(request({ query: '{ ArtistList(limit: 1, sort: "ArtistId") { ArtistId Name } }' }));
      expect(ok && 'response' in ok).toBe(true);
      const res = (ok as { response: Response }).response;
      expect(await res.json()).toEqual({ data: { ArtistList: [{ ArtistId: 1, Name: 'AC/DC' }] } });

      const mutation = { query: 'mutation { ArtistDelete(id: "999999") }' };
      expect(await run(request(mutation))).toEqual({ body: JSON.stringify(mutation) });
      const invalid = { query: '{ Nope }' };
      expect(await run(request(invalid))).toEqual({ body: JSON.stringify(invalid) });
      expect(await run(request({ query: '{ ArtistList { Name } }' }, { accept: 'application/graphql-response+json' }))).toBeUndefined();
      expect(await run(new Request(`http://localhost/nc/${id}/v1/graphql?query=%7B__typename%7D`, { headers: { 'xc-auth': token } }))).toBeUndefined();
    });

    test('answered before the router: one request line, as the app writes it', async () => {
      const logged = await makeTestApp({ logRequests: true });
      try {
        const owner = (await signupSuperAdmin(logged)).token;
        const projectId = await projectOver(logged, owner, engine, `Logged ${engine}`, cfg);
        const post = () =>
          logged.app.handle(
            new Request(`http://localhost/nc/${projectId}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify({ query: '{ ArtistList(limit: 1) { Name } }' }) }),
          );
        const LINE = new RegExp(`^INFO POST /nc/${projectId}/v1/graphql 200 \\d+\\.\\dms$`);
        // A request's line is written after its answer: waits for one of these (up to 5 s).
        const lineWritten = async () => {
          for (const end = Date.now() + 5_000; !logged.log.lines.some((l) => LINE.test(l)) && Date.now() < end; ) await Bun.sleep(10);
        };
        expect((await post()).status).toBe(200); // the caller and the project are now cached
        await lineWritten();
        logged.log.lines.length = 0;
        const res = await post();
        expect(await res.json()).toEqual({ data: { ArtistList: [{ Name: 'AC/DC' }] } });
        await lineWritten();
        expect(logged.log.lines).toEqual([expect.stringMatching(LINE)]);
      } finally {
        await logged.close();
      }
    });
  },
  ['sqlite', 'pg'],
);
