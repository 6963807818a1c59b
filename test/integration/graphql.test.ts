/**
 * The GraphQL API through a real client library (graphql-request): schema validity, the same
 * rows as REST on every engine, batching (statements counted), mutations, errors with codes,
 * depth limit, and the schema following schema changes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { GraphQLClient, ClientError, gql } from 'graphql-request';
import { buildClientSchema, getIntrospectionQuery, validateSchema, type IntrospectionQuery } from 'graphql';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook, type TestEngine } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => t.close());

/** A graphql-request client whose fetch goes through app.handle (no port). */
const clientFor = (projectId: string, headers: Record<string, string> = { 'xc-auth': token }) =>
  new GraphQLClient(`http://localhost/nc/${projectId}/v1/graphql`, {
    headers,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => t.app.handle(new Request(input as string, init))) as typeof fetch,
  });

const rest = async (path: string) => (await t.request('GET', path, { headers: { 'xc-auth': token } })).body;

describeEngines('GraphQL over Chinook', (engine: TestEngine) => {
  const dbName = `tablo_t_graphql_${engine}`;
  let id = '';
  let client: GraphQLClient;
  beforeAll(async () => {
    const cfg = await loadChinook(engine, dbName);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, 'gql.sqlite'), Bun.file(cfg.connection.filename!));
      connection = { filename: 'gql.sqlite' };
    }
    id = (await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `GraphQL ${engine}`, projectType: 'graphql', db: { client: engine, connection } } })).body.id;
    client = clientFor(id);
  });
  afterAll(async () => dropDatabase(engine, dbName));

  test('the introspected schema is valid and has the per-table fields', async () => {
    const result = await client.request<IntrospectionQuery>(getIntrospectionQuery());
    const schema = buildClientSchema(result);
    expect(validateSchema(schema)).toEqual([]);
    const query = schema.getQueryType()!.getFields();
    for (const f of ['TrackList', 'TrackRead', 'TrackExists', 'TrackFindOne', 'TrackCount', 'TrackDistinct', 'TrackGroupBy', 'TrackAggregate', 'TrackDistribution', 'm2mNotChildren', 'm2mNotChildrenCount']) expect(query[f]).toBeDefined();
    const mutation = schema.getMutationType()!.getFields();
    for (const f of ['TrackCreate', 'TrackUpdate', 'TrackDelete', 'TrackCreateBulk', 'TrackUpdateBulk', 'TrackDeleteBulk']) expect(mutation[f]).toBeDefined();
    const album = schema.getType('Album') as any;
    expect(Object.keys(album.getFields())).toEqual(expect.arrayContaining(['AlbumId', 'Title', 'ArtistRead', 'TrackList', 'TrackCount']));
    expect(Object.keys((schema.getType('Playlist') as any).getFields())).toContain('TrackMMList');
    expect(schema.getType('TrackInput')).toBeDefined();
    expect(schema.getType('ConditionTrack')).toBeDefined();
    expect(String((schema.getType('Track') as any).getFields().UnitPrice.type)).toBe('Decimal');
  });

  test('the same rows as REST: list, filter, sort and nested reads', async () => {
    const where = '(GenreId,eq,1)~and(Milliseconds,gt,300000)';
    const restRows = await rest(`/nc/${id}/api/v1/Track?where=${encodeURIComponent(where)}&sort=-Milliseconds,TrackId&limit=5`);
    const gqlRows = (await client.request<any>(gql`query ($w: String) { TrackList(where: $w, sort: "-Milliseconds,TrackId", limit: 5) { TrackId Name AlbumId MediaTypeId GenreId Composer Milliseconds Bytes UnitPrice } }`, { w: where })).TrackList;
    expect(gqlRows).toEqual(restRows);
    const restNested = await rest(`/nc/${id}/api/v1/Album?limit=3&fields=AlbumId,Title&bt=Artist&hm=Track&hlimit1=2`);
    const gqlNested = (await client.request<any>('{ AlbumList(limit: 3) { AlbumId Title ArtistRead { ArtistId Name } TrackList(limit: 2) { TrackId Name } } }')).AlbumList;
    expect(gqlNested).toEqual(restNested.map((a: any) => ({ AlbumId: a.AlbumId, Title: a.Title, ArtistRead: a.ArtistRead, TrackList: a.TrackList })));
    const restFiltered = await rest(`/nc/${id}/api/v1/Album?limit=3&offset=2&fields=AlbumId&hm=Track&hwhere1=${encodeURIComponent('(Milliseconds,gt,250000)')}&hsort1=-Name&hlimit1=2&hfields1=TrackId,Name`);
    const gqlFiltered = (await client.request<any>('{ AlbumList(limit: 3, offset: 2) { AlbumId TrackList(where: "(Milliseconds,gt,250000)", sort: "-Name", limit: 2) { TrackId Name } } }')).AlbumList;
    expect(gqlFiltered).toEqual(restFiltered);
    expect(gqlFiltered.some((a: any) => a.TrackList.length === 2)).toBe(true);
    const condition = { GenreId: { in: [3, 4] }, _not: { Milliseconds: { lt: 200000 } } };
    const restCond = await rest(`/nc/${id}/api/v1/Track?fields=TrackId,Name&sort=Name&limit=7&condition=${encodeURIComponent(JSON.stringify(condition))}`);
    const gqlCond = (await client.request<any>(gql`query ($c: ConditionTrack) { TrackList(condition: $c, sort: "Name", limit: 7) { TrackId Name } }`, { c: condition })).TrackList;
    expect(gqlCond).toEqual(restCond);
    expect(gqlCond.length).toBe(7);
    const graph = { Track: { relationType: 'hm', Milliseconds: { gt: 1000000 } } };
    const restGraph = await rest(`/nc/${id}/api/v1/Album?fields=AlbumId,Title&limit=10&conditionGraph=${encodeURIComponent(JSON.stringify(graph))}`);
    const gqlGraph = (await client.request<any>(gql`query ($g: JSON) { AlbumList(conditionGraph: $g, limit: 10) { AlbumId Title } }`, { g: graph })).AlbumList;
    expect(gqlGraph).toEqual(restGraph);
    expect(gqlGraph.length).toBeGreaterThan(0);
    expect((await client.request<any>(gql`query ($g: JSON) { AlbumCount(conditionGraph: $g) }`, { g: graph })).AlbumCount).toBe((await rest(`/nc/${id}/api/v1/Album/count?conditionGraph=${encodeURIComponent(JSON.stringify(graph))}`)).count);
    const restCount = await rest(`/nc/${id}/api/v1/Track/count?where=${encodeURIComponent('(GenreId,eq,1)')}`);
    expect((await client.request<any>('{ TrackCount(where: "(GenreId,eq,1)") }')).TrackCount).toBe(restCount.count);
    const cond = await client.request<any>('{ TrackList(condition: { GenreId: { eq: 2 }, _or: [{ TrackId: { lt: 70 } }, { TrackId: { gt: 3000 } }] }, limit: 2) { TrackId } }');
    expect(cond.TrackList).toEqual([{ TrackId: 63 }, { TrackId: 64 }]);
    const mm = await client.request<any>('{ PlaylistList(limit: 2) { PlaylistId TrackMMList(limit: 2) { TrackId } } }');
    expect(mm.PlaylistList).toEqual([{ PlaylistId: 1, TrackMMList: [{ TrackId: 1 }, { TrackId: 2 }] }, { PlaylistId: 2, TrackMMList: [] }]);
  });

  test('GET serves introspection to tools; a GET mutation is refused', async () => {
    const viaGet = new GraphQLClient(`http://localhost/nc/${id}/v1/graphql`, {
      method: 'GET',
      headers: { 'xc-auth': token },
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => t.app.handle(new Request(input as string, init))) as typeof fetch,
    });
    const schema = buildClientSchema(await viaGet.request<IntrospectionQuery>(getIntrospectionQuery()));
    expect(validateSchema(schema)).toEqual([]);
    expect(schema.getQueryType()!.getFields().AlbumList).toBeDefined();
    const res = await t.request('GET', `/nc/${id}/v1/graphql?query=${encodeURIComponent('mutation { GenreDelete(id: "1") }')}`, { headers: { 'xc-auth': token } });
    expect(res.status).toBe(405);
    expect((await client.request<any>('{ GenreExists(id: "1") }')).GenreExists).toBe(true);
  });

  test('relation fields are batched: one query per relation per level', async () => {
    const pdb = await t.app.ctx.projects.get(id);
    const driver = pdb.db.driver;
    const original = driver.query.bind(driver);
    let statements = 0;
    driver.query = ((c: Parameters<typeof original>[0]) => (statements++, original(c))) as typeof driver.query;
    try {
      const res = await client.request<any>('{ ArtistList(limit: 20) { Name AlbumList { Title TrackList { Name MediaTypeRead { Name } } } AlbumCount } }');
      expect(res.ArtistList.length).toBe(20);
      // Artists, their albums, the albums' tracks, the tracks' media types, album counts.
      expect(statements).toBe(5);
      // Four times the rows, the same statements.
      statements = 0;
      const more = await client.request<any>('{ ArtistList(limit: 80) { Name AlbumList(limit: 5) { Title TrackList(limit: 5) { Name MediaTypeRead { Name } } } AlbumCount } }');
      expect(more.ArtistList.length).toBe(80);
      expect(statements).toBe(5);
      statements = 0;
      await client.request<any>('{ PlaylistList { TrackMMList(limit: 100) { GenreRead { Name } AlbumRead { Title ArtistRead { Name } } } } }');
      // Playlists, their tracks, the tracks' genres and albums, the albums' artists.
      expect(statements).toBe(5);
    } finally {
      driver.query = original;
    }
  });

  test('only the columns asked for (and the keys relations need) are read', async () => {
    const pdb = await t.app.ctx.projects.get(id);
    const driver = pdb.db.driver;
    const original = driver.query.bind(driver);
    const sqls: string[] = [];
    driver.query = ((c: Parameters<typeof original>[0]) => (sqls.push(c.sql), original(c))) as typeof driver.query;
    try {
      const res = await client.request<any>('{ TrackList(limit: 2) { ...T } } fragment T on Track { Name AlbumRead { Title } }');
      expect(res.TrackList).toEqual([{ Name: 'For Those About To Rock (We Salute You)', AlbumRead: { Title: 'For Those About To Rock We Salute You' } }, { Name: 'Balls to the Wall', AlbumRead: { Title: 'Balls to the Wall' } }]);
      expect(sqls.length).toBe(2);
      expect(sqls[0]).toContain('AlbumId');
      for (const unasked of ['Composer', 'Bytes', 'UnitPrice']) expect(sqls[0]).not.toContain(unasked);
      expect(sqls[1]).not.toContain('ArtistId');
      // One fragment under two selections that need different columns of Album.
      const twice = await client.request<any>(
        '{ AlbumList(limit: 1) { ...A ArtistRead { ArtistId } } TrackList(limit: 1) { AlbumRead { ...A } } } fragment A on Album { ArtistRead { Name } }',
      );
      expect(twice).toEqual({ AlbumList: [{ ArtistRead: { Name: 'AC/DC', ArtistId: 1 } }], TrackList: [{ AlbumRead: { ArtistRead: { Name: 'AC/DC' } } }] });
      const reversed = await client.request<any>(
        '{ TrackList(limit: 1) { AlbumRead { ...A } } AlbumList(limit: 1) { ...A ArtistRead { ArtistId } } } fragment A on Album { ArtistRead { Name } }',
      );
      expect(reversed).toEqual({ TrackList: [{ AlbumRead: { ArtistRead: { Name: 'AC/DC' } } }], AlbumList: [{ ArtistRead: { Name: 'AC/DC', ArtistId: 1 } }] });
    } finally {
      driver.query = original;
    }
  });

  test('mutations and aggregates', async () => {
    const created = await client.request<any>('mutation { GenreCreate(data: { GenreId: 950, Name: "Tablo" }) { GenreId Name } }');
    expect(created.GenreCreate).toEqual({ GenreId: 950, Name: 'Tablo' });
    expect((await client.request<any>('mutation { GenreUpdate(id: "950", data: { Name: "Tablo 2" }) { Name } }')).GenreUpdate).toEqual({ Name: 'Tablo 2' });
    expect((await client.request<any>('mutation { GenreCreateBulk(data: [{ GenreId: 951, Name: "a" }, { GenreId: 952, Name: "b" }]) }')).GenreCreateBulk).toEqual(['951', '952']);
    expect((await client.request<any>('mutation { GenreUpdateBulk(data: [{ GenreId: 951, Name: "a2" }, { GenreId: 952, Name: "b2" }]) }')).GenreUpdateBulk).toBe(2);
    expect((await client.request<any>('{ GenreList(where: "(GenreId,gt,950)") { Name } }')).GenreList).toEqual([{ Name: 'a2' }, { Name: 'b2' }]);
    // All or nothing: the second row breaks the unique key, so the first is not created either.
    const partial = await client.request('mutation { GenreCreateBulk(data: [{ GenreId: 953, Name: "c" }, { GenreId: 951, Name: "dup" }]) }').catch((e) => e);
    expect(partial.response.errors[0].extensions.code).toBe('CONFLICT');
    expect((await client.request<any>('{ GenreExists(id: "953") }')).GenreExists).toBe(false);
    expect((await client.request<any>('mutation { GenreDeleteBulk(data: [{ GenreId: 951 }, { GenreId: 952 }]) }')).GenreDeleteBulk).toBe(2);
    expect((await client.request<any>('mutation { GenreDelete(id: "950") }')).GenreDelete).toBe(1);
    expect((await client.request<any>('{ GenreExists(id: "950") }')).GenreExists).toBe(false);
    const agg = await client.request<any>('{ TrackAggregate(column_name: "Milliseconds", func: "min,max") TrackGroupBy(fields: "MediaTypeId", limit: 1) m2mNotChildrenCount(pid: "1", assoc: "Track", parent: "Playlist") }');
    const dist = await client.request<any>('{ TrackDistribution(column_name: "Milliseconds", min: 0, max: 1000000, step: 500000, where: "(GenreId,eq,1)") }');
    expect(dist.TrackDistribution).toEqual(await rest(`/nc/${id}/api/v1/Track/distribute?column_name=Milliseconds&steps=0,500000,1000000&where=${encodeURIComponent('(GenreId,eq,1)')}`));
    expect(dist.TrackDistribution.map((d: any) => d.range)).toEqual(['0-500000', '500000-1000000']);
    expect(agg).toEqual({ TrackAggregate: [{ min: 1071, max: 5286953 }], TrackGroupBy: [{ MediaTypeId: 1, count: 3034 }], m2mNotChildrenCount: 213 });
  });

  test('groupBy having filters the groups, by count or a grouped column, apart from where', async () => {
    const few = await client.request<any>('{ TrackGroupBy(fields: "MediaTypeId", having: "(count,lt,100)") }');
    expect(few.TrackGroupBy).toEqual([{ MediaTypeId: 5, count: 11 }, { MediaTypeId: 4, count: 7 }]);
    // The where's OR stays one filter of the rows: having is not glued to it with ~and.
    const where = '(GenreId,eq,1)~or(GenreId,eq,2)';
    const one = await client.request<any>(`{ TrackGroupBy(fields: "MediaTypeId", where: "${where}", having: "(MediaTypeId,eq,1)") }`);
    const all = await rest(`/nc/${id}/api/v1/Track/groupby?fields=MediaTypeId&where=${encodeURIComponent(where)}`);
    expect(one.TrackGroupBy).toEqual(all.filter((g: any) => g.MediaTypeId === 1));
    expect(await rest(`/nc/${id}/api/v1/Track/groupby?fields=MediaTypeId&having=${encodeURIComponent('(count,gt,1000)')}`)).toEqual([{ MediaTypeId: 1, count: 3034 }]);
    // sort, which the schema offers on distinct and aggregate too, applies there as well.
    const sorted = await client.request<any>('{ TrackDistinct(column_name: "MediaTypeId", sort: "-MediaTypeId", limit: 2) { MediaTypeId } TrackAggregate(column_name: "Milliseconds", func: "max", fields: "MediaTypeId", sort: "-max", limit: 1) }');
    expect(sorted).toEqual({ TrackDistinct: [{ MediaTypeId: 5 }, { MediaTypeId: 4 }], TrackAggregate: [{ MediaTypeId: 3, max: 5286953 }] });
    const other = await client.request('{ TrackGroupBy(fields: "MediaTypeId", having: "(GenreId,eq,1)") }').catch((e) => e);
    expect(other.response.errors[0]).toMatchObject({ message: "Column 'GenreId' not found", extensions: { code: 'BAD_REQUEST' } });
  });

  test('errors carry codes and no stack traces', async () => {
    const err = await client.request('{ TrackList(where: "(Nope,eq,1)") { TrackId } }').catch((e) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err.response.errors[0]).toMatchObject({ message: "Column 'Nope' not found", extensions: { code: 'BAD_REQUEST' } });
    const dup = await client.request('mutation { GenreCreate(data: { GenreId: 1, Name: "dup" }) { GenreId } }').catch((e) => e);
    expect(dup.response.errors[0].extensions.code).toBe('CONFLICT');
    expect(JSON.stringify(dup.response)).not.toContain('    at ');
    const missing = await client.request('{ TrackRead(id: "999999") { TrackId } }').catch((e) => e);
    expect(missing.response.errors[0].extensions.code).toBe('NOT_FOUND');
    const nestedBad = await client.request('{ AlbumList(limit: 2) { AlbumId TrackList(where: "(Nope,eq,1)") { TrackId } } }').catch((e) => e);
    expect(nestedBad.response.errors[0]).toMatchObject({ message: "Column 'Nope' not found", path: ['AlbumList', 0, 'TrackList'], extensions: { code: 'BAD_REQUEST' } });
    expect(nestedBad.response.data.AlbumList).toEqual([{ AlbumId: 1, TrackList: null }, { AlbumId: 2, TrackList: null }]);
    const unknownField = await client.request('{ TrackList { Nope } }').catch((e) => e);
    expect(unknownField.response.status).toBe(400);
    expect(unknownField.response.errors[0]).toMatchObject({ message: 'Cannot query field "Nope" on type "Track". Did you mean "Name"?', extensions: { code: 'BAD_REQUEST' } });
    const badType = await client.request('mutation { GenreCreate(data: { GenreId: "x", Name: "n" }) { GenreId } }').catch((e) => e);
    expect(badType.response.errors[0].extensions.code).toBe('BAD_REQUEST');
    const unknownParent = await client.request('{ m2mNotChildrenCount(pid: "1", assoc: "Track", parent: "Nope") }').catch((e) => e);
    expect(unknownParent.response.errors[0]).toMatchObject({ message: "Table 'Nope' not found", extensions: { code: 'NOT_FOUND' } });
    // More bound values than one statement takes: PostgreSQL's driver failed it as INTERNAL.
    const many = await client.request('query ($w: String) { TrackList(where: $w) { TrackId } }', { w: `(TrackId,in,${Array.from({ length: 70_000 }, (_, i) => i).join(',')})` }).catch((e) => e);
    expect(many.response.errors[0]).toMatchObject({ message: expect.stringMatching(/^The request holds \d+ values, more than the \d+ one statement of this database can take$/), extensions: { code: 'BAD_REQUEST' } });
  });

  test('variables or extensions that are not JSON are BAD_REQUEST; a body of no GraphQL type is 415 in the envelope', async () => {
    const q = encodeURIComponent('query ($l: Int) { TrackList(limit: $l) { TrackId } }');
    const h = { 'xc-auth': token };
    const answers = [
      await t.request('GET', `/nc/${id}/v1/graphql?query=${q}&variables=%7B`, { headers: h }),
      await t.request('GET', `/nc/${id}/v1/graphql?query=${q}&extensions=nope`, { headers: h }),
      await t.request('POST', `/nc/${id}/v1/graphql`, { body: `query=${q}&variables=%7B`, headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' } }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: "The 'variables' or 'extensions' parameter is not JSON", extensions: { code: 'BAD_REQUEST' } });
    }
    const plain = await t.request('POST', `/nc/${id}/v1/graphql`, { body: '{ TrackList { TrackId } }', headers: { ...h, 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body.errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  test('depth and cost limits', async () => {
    let q = 'TrackId';
    for (let i = 0; i < 6; i++) q = `TrackList(limit: 1) { AlbumRead { TrackList(limit: 1) { ${q} } } }`;
    const deep = await client.request(`{ AlbumList(limit: 1) { ${q} } }`).catch((e) => e);
    expect(deep.response.errors[0]).toMatchObject({ message: 'The query is nested 20 levels deep; the limit is 10', extensions: { code: 'BAD_REQUEST' } });
    const costly = await client.request('{ ArtistList(limit: 1000) { AlbumList(limit: 1000) { TrackList(limit: 1000) { Name } } } }').catch((e) => e);
    expect(costly.response.errors[0].message).toContain('the limit is 50000');
    expect(costly.response.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', limit: 'cost' });
    expect(costly.response.status).toBe(400);
    // A limit given as a variable counts with its value.
    const nested = gql`query ($a: Int, $b: Int) { ArtistList(limit: $a) { AlbumList(limit: $b) { Title } } }`;
    const viaVars = await client.request(nested, { a: 1000, b: 1000 }).catch((e) => e);
    expect(viaVars.response.errors[0].message).toBe('The query would cost 1001001; the limit is 50000');
    expect((await client.request<any>(nested, { a: 2, b: 1 })).ArtistList).toEqual([{ AlbumList: [{ Title: 'For Those About To Rock We Salute You' }] }, { AlbumList: [{ Title: 'Balls to the Wall' }] }]);
  });

  test('a schema change outside Tablo shows after metaSync', async () => {
    const builds = () => t.log.lines.filter((l) => l.startsWith(`INFO GraphQL schema built for ${id} `)).length;
    const built = builds();
    expect(built).toBeGreaterThanOrEqual(1);
    await client.request('{ GenreCount }');
    await client.request('{ ArtistCount }');
    expect(builds()).toBe(built); // cached
    const pdb = await t.app.ctx.projects.get(id);
    await pdb.db.driver.execute({ sql: 'CREATE TABLE gql_probe (id INTEGER PRIMARY KEY, label VARCHAR(20))', params: [] });
    try {
      const before = await client.request('{ GqlProbeList { Id } }').catch((e) => e);
      expect(before).toBeInstanceOf(ClientError);
      await dashboardOp(t, token, 'metaSync', { project_id: id });
      expect((await client.request<any>('{ GqlProbeList { Id Label } }')).GqlProbeList).toEqual([]);
      expect(builds()).toBe(built + 1);
    } finally {
      await pdb.db.driver.execute({ sql: 'DROP TABLE gql_probe', params: [] });
    }
  });
});

describe('GraphQL access', () => {
  test('a guest is refused like REST, in the GraphQL envelope', async () => {
    const { body } = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Gql Access' } });
    const guest = clientFor(body.id, {});
    const err = await guest.request('{ __typename }').catch((e) => e);
    expect(err).toBeInstanceOf(ClientError);
    expect(err.response.status).toBe(401);
    expect(err.response.errors).toEqual([{ message: 'Not signed in', extensions: { code: 'UNAUTHORIZED' } }]);
    expect((await clientFor(body.id).request<any>('{ __typename }')).__typename).toBe('Query');
  });

  test('a stopped project answers UNAVAILABLE, and serves again once started', async () => {
    const { body } = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: 'Gql Stop', projectType: 'graphql' } });
    const client = clientFor(body.id);
    expect((await client.request<any>('{ __typename }')).__typename).toBe('Query');
    expect((await dashboardOp(t, token, 'projectStop', { project_id: body.id })).status).toBe(200);
    const stopped = await client.request('{ __typename }').catch((e) => e);
    expect(stopped.response.status).toBe(503);
    expect(stopped.response.errors[0].extensions.code).toBe('UNAVAILABLE');
    expect((await dashboardOp(t, token, 'projectStart', { project_id: body.id })).status).toBe(200);
    expect((await client.request<any>('{ __typename }')).__typename).toBe('Query');
  });

  test('an unknown project answers NOT_FOUND', async () => {
    const res = await t.request('POST', '/nc/nope_zzzz/v1/graphql', { headers: { 'xc-auth': token }, body: { query: '{ __typename }' } });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
