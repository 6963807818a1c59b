/**
 * The single binary, run from a folder with no node_modules: it serves the embedded web app at `/`
 * with its script and stylesheet, keeps every other unknown path with the API (404 `{msg}`), and
 * answers --version without starting a server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ensureBinary, startTablo, type RunningTablo } from './helpers';
import { VERSION } from '../../src/version';

describe('the built binary', () => {
  let tablo: RunningTablo;

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

  test('--version prints the version and exits', async () => {
    const proc = Bun.spawn([await ensureBinary(), '--version'], { cwd: tablo.dataDir.replace(/\/data$/, ''), stdout: 'pipe', stderr: 'pipe' });
    expect(await proc.exited).toBe(0);
    expect((await new Response(proc.stdout).text()).trim()).toBe(VERSION);
  });
});
