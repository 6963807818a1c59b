/**
 * The single binary, run from a folder with no node_modules: it serves the embedded web app at `/`
 * with its script and stylesheet, keeps every other unknown path with the API (404 `{msg}`),
 * answers --version without starting a server, and serves a project's REST and GraphQL reads
 * (whose row and answer makers are generated at run time) the same as from source, with room for
 * long filters in the address (the binary raises Bun's header limit) and `{msg}` past Tablo's limit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { ensureBinary, startTablo, type RunningTablo } from './helpers';
import { loadChinook } from '../helpers/engines';
import { VERSION } from '../../src/version';

describe('the built binary', () => {
  let tablo: RunningTablo;
  /** The session and the Chinook project of the REST and GraphQL test, for the tests after it. */
  let session = '';
  let chinook = '';

  beforeAll(async () => {
    tablo = await startTablo();
  }, 120_000);
  afterAll(async () => {
    await tablo?.stop();
  });

  test('/ is the web app, and its script and stylesheet load with their types', async () => {
    const res = await fetch(`${tablo.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    const script = html.match(/<script[^>]+src="([^"]+)"/)?.[1];
    const style = html.match(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    const js = await fetch(new URL(script!, tablo.url));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    // The production build of React ships, not the development one.
    expect(await js.text()).not.toContain('react-dom.development');
    const css = await fetch(new URL(style!, tablo.url));
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
  });

  test('unknown paths stay with the API: 404 with a {msg} body, never the page', async () => {
    for (const path of ['/nope/api', '/projects', '/user/authentication/signin', '/index.html.bak']) {
      const res = await fetch(`${tablo.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = (await res.json()) as { msg?: unknown };
      expect(typeof body.msg).toBe('string');
    }
  });

  test('the API answers beside the page', async () => {
    const res = await fetch(`${tablo.url}/auth/type`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as { firstUser: boolean; version: string };
    expect(info.firstUser).toBe(true);
    expect(info.version).toBe(VERSION);
  });

  test('a project answers REST and GraphQL reads, again and again', async () => {
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${tablo.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'xc-auth': token } : {}) }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const { token } = (await post('/auth/signup', { email: 'binary@example.com', password: 'binary-password1' })).body;
    const cfg = await loadChinook('sqlite', 'tablo_t_binary');
    await Bun.write(join(tablo.dataDir, 'chinook.sqlite'), Bun.file(cfg.connection.filename!));
    const project = await post('/dashboard', { api: 'projectCreateByWeb', args: { title: 'Binary', db: { client: 'sqlite', connection: { filename: 'chinook.sqlite' } } } }, token);
    expect(project.status).toBe(200);
    session = token;
    chinook = project.body.id;
    const query = '{ AlbumList(limit: 2, sort: "AlbumId") { AlbumId Title ArtistRead { Name } } }';
    const albums = [
      { AlbumId: 1, Title: 'For Those About To Rock We Salute You', ArtistRead: { Name: 'AC/DC' } },
      { AlbumId: 2, Title: 'Balls to the Wall', ArtistRead: { Name: 'Accept' } },
    ];
    for (let i = 0; i < 3; i++) {
      expect(await post(`/nc/${project.body.id}/v1/graphql`, { query }, token)).toEqual({ status: 200, body: { data: { AlbumList: albums } } });
      const rest = await fetch(`${tablo.url}/nc/${project.body.id}/api/v1/Album?limit=2&sort=AlbumId&fields=AlbumId,Title`, { headers: { 'xc-auth': token } });
      expect(await rest.json()).toEqual(albums.map(({ AlbumId, Title }) => ({ AlbumId, Title })));
    }
  });

  test('a long filter is served (Bun refused addresses over 16 KiB with an empty 431); one too long for Tablo answers 414 {msg}', async () => {
    expect(chinook).not.toBe('');
    const list = (n: number) => fetch(`${tablo.url}/nc/${chinook}/api/v1/Track?where=(TrackId,in,${Array.from({ length: n }, (_, i) => i + 1).join(',')})&limit=1&fields=TrackId`, { headers: { 'xc-auth': session } });
    // About 40 KB of address, as a filter pasted from a spreadsheet column of ids makes it.
    const served = await list(8000);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual([{ TrackId: 1 }]);
    const refused = await list(14000);
    expect(refused.status).toBe(414);
    expect(((await refused.json()) as { msg: string }).msg).toMatch(/^The request's address is too long: \d+ bytes, at most 65536\./);
  });

  test('--version prints the version and exits', async () => {
    const proc = Bun.spawn([await ensureBinary(), '--version'], { cwd: tablo.dataDir.replace(/\/data$/, ''), stdout: 'pipe', stderr: 'pipe' });
    expect(await proc.exited).toBe(0);
    expect((await new Response(proc.stdout).text()).trim()).toBe(VERSION);
  });
});
