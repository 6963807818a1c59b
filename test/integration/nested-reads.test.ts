/**
 * Nested has-many children on every engine: each parent gets its first `limit` children in the
 * sort order, whether the engine reads them with one capped query (cut per parent) or with
 * ROW_NUMBER(), including after a parent with many children made the capped query overflow; pages
 * of changing sizes get their own related rows from the reused nested SQL; and repeated reads
 * (answered from compiled plans) give the same rows as the first. GraphQL relation
 * fields loaded with their page (aliases, fragments, with and without arguments) answer as REST does.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app';
import { signupSuperAdmin } from '../helpers/auth';
import { dashboardOp } from '../helpers/dashboard';
import { describeEngines, dropDatabase, loadChinook } from '../helpers/engines';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await makeTestApp();
  token = (await signupSuperAdmin(t)).token;
});
afterAll(async () => {
  await t.close();
});

describeEngines('nested reads', (engine) => {
  const name = `tablo_t_perf2_nested_${engine}`;
  let base = '';
  const get = async (path: string) => {
    const res = await t.request('GET', `${base}${path}`, { headers: { 'xc-auth': token } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };
  beforeAll(async () => {
    const cfg = await loadChinook(engine, name);
    let connection = cfg.connection as Record<string, unknown>;
    if (engine === 'sqlite') {
      await Bun.write(join(t.dataDir, `${name}.sqlite`), Bun.file(cfg.connection.filename!));
      connection = { filename: `${name}.sqlite` };
    }
    const res = await dashboardOp(t, token, 'projectCreateByWeb', { args: { title: `Nested ${engine}`, db: { client: engine, connection } } });
    if (res.status !== 200) throw new Error(res.text);
    base = `/nc/${res.body.id}/api/v1`;
  });
  afterAll(async () => {
    await dropDatabase(engine, name);
  });

  /** The children each artist should get: its albums read one artist at a time. */
  async function expected(artists: { ArtistId: number }[], limit: number, sort: string) {
    const out: unknown[] = [];
    for (const a of artists) out.push(await get(`/Album?where=${encodeURIComponent(`(ArtistId,eq,${a.ArtistId})`)}&sort=${sort}&limit=${limit}&fields=AlbumId,Title`));
    return out;
  }

  test('each parent gets its first children in the sort order, with few or many children', async () => {
    // Artists 1-30 hold between 0 and 21 albums (Iron Maiden, 90, is in the second page).
    for (const [offset, limit, sort] of [[0, 2, 'AlbumId'], [0, 25, '-Title'], [80, 1, 'AlbumId'], [80, 3, '-AlbumId'], [80, 25, 'Title']] as const) {
      const path = `/Artist?limit=30&offset=${offset}&fields=ArtistId&hm=Album&hlimit1=${limit}&hsort1=${sort}&hfields1=AlbumId,Title`;
      const artists = await get(path);
      expect(artists.length).toBe(30);
      expect(artists.map((a: { AlbumList: unknown }) => a.AlbumList)).toEqual(await expected(artists, limit, sort));
      // Again: the plan is reused, and after an overflow the other way of reading answers.
      expect(await get(path)).toEqual(artists);
    }
    const maiden = (await get('/Artist?where=(ArtistId,eq,90)&hm=Album&hlimit1=30&hfields1=AlbumId'))[0].AlbumList;
    expect(maiden.length).toBe(21);
  });

  test('GraphQL relation fields loaded with the page: aliases, fragments, arguments, missing parents', async () => {
    const projectId = base.split('/')[2]!;
    const query = `fragment T on Track { TrackId }
      { AlbumList(limit: 4, offset: 10) { AlbumId a1: ArtistRead { Name } a2: ArtistRead { ArtistId } TrackList { ...T Name } t2: TrackList(limit: 1, sort: "-TrackId") { TrackId } }
        EmployeeList(limit: 3) { EmployeeId EmployeeRead { EmployeeId } } }`;
    const run = async () => {
      const res = await t.request('POST', `/nc/${projectId}/v1/graphql`, { body: { query }, headers: { 'xc-auth': token } });
      expect(res.status).toBe(200);
      return res.body;
    };
    const body = await run();
    expect(body.errors).toBeUndefined();
    const albums = await get('/Album?limit=4&offset=10&bt=Artist&hm=Track&hfields1=TrackId,Name&fields=AlbumId');
    expect(body.data.AlbumList).toEqual(
      await Promise.all(
        albums.map(async (a: { AlbumId: number; ArtistRead: { ArtistId: number; Name: string }; TrackList: unknown[] }) => ({
          AlbumId: a.AlbumId,
          a1: { Name: a.ArtistRead.Name },
          a2: { ArtistId: a.ArtistRead.ArtistId },
          TrackList: a.TrackList,
          t2: await get(`/Track?where=(AlbumId,eq,${a.AlbumId})&sort=-TrackId&limit=1&fields=TrackId`),
        })),
      ),
    );
    // The first employee reports to nobody: a belongs-to without a parent is null.
    expect(body.data.EmployeeList[0].EmployeeRead).toBeNull();
    expect(body.data.EmployeeList[1].EmployeeRead).toEqual({ EmployeeId: 1 });
    expect(await run()).toEqual(body);
  });

  test('pages of changing sizes and keys get their own related rows from the reused SQL', async () => {
    for (const [offset, limit] of [[0, 4], [10, 4], [20, 7], [0, 4], [300, 4]] as const) {
      const albums = await get(`/Album?limit=${limit}&offset=${offset}&fields=AlbumId,ArtistId&bt=Artist&hm=Track&hfields1=TrackId,AlbumId`);
      expect(albums.length).toBe(limit);
      for (const a of albums) {
        expect(a.ArtistRead.ArtistId).toBe(a.ArtistId);
        const tracks = await get(`/Track?where=${encodeURIComponent(`(AlbumId,eq,${a.AlbumId})`)}&sort=TrackId&limit=25&fields=TrackId,AlbumId`);
        expect(a.TrackList).toEqual(tracks);
      }
    }
  });

  test('a repeated one-row read and list answer the same, and a changed row is seen at once', async () => {
    const first = await get('/Genre/3');
    expect(await get('/Genre/3')).toEqual(first);
    const res = await t.request('PUT', `${base}/Genre/3`, { body: { Name: 'Changed' }, headers: { 'xc-auth': token } });
    expect(res.status).toBe(200);
    expect((await get('/Genre/3')).Name).toBe('Changed');
    expect((await get('/Genre?where=(GenreId,eq,3)'))[0].Name).toBe('Changed');
    expect((await get('/Genre/4')).GenreId).toBe(4);
  });
});
