/**
 * Tablo under a path prefix: the web app's addresses from its page's directory, the page's files
 * made relative, NC_PUBLIC_URL's path (links, cookies) and the paths it may not take.
 */
import { describe, expect, test } from 'bun:test';
import { appBase, appSocketUrl, appUrl, serverLink } from '../../web/src/api/app-url';
import { buildRequest, emptyRequest } from '../../web/src/features/api-client/request-model';
import { relativeAssets, stripPathPrefix } from '../../src/http/path-prefix';
import { forwardedPrefix, linkBase, publicPath, publicPathOf } from '../../src/http/link-base';
import { refreshCookie } from '../../src/api/auth/cookies';
import { stateCookie } from '../../src/auth/oauth/state-cookie';
import { parseConfig, testConfig } from '../../src/config/config';

const UNDER = 'https://corp.example/tablo/#/nc/p1?view=grid';
const ROOT = 'http://127.0.0.1:8080/#/projects';

describe('web app addresses', () => {
  test('server paths go under the page directory, at the root as before', () => {
    expect(appBase(UNDER)).toBe('https://corp.example/tablo/');
    expect(appUrl('/auth/signin', UNDER)).toBe('https://corp.example/tablo/auth/signin');
    expect(appUrl('/dashboard?q=sqlOp_x', UNDER)).toBe('https://corp.example/tablo/dashboard?q=sqlOp_x');
    expect(appUrl('/auth/signin', ROOT)).toBe('http://127.0.0.1:8080/auth/signin');
    expect(appSocketUrl('/api/v1/realtime?project_id=p1', UNDER)).toBe('wss://corp.example/tablo/api/v1/realtime?project_id=p1');
    expect(appSocketUrl('/api/terminal/socket', ROOT)).toBe('ws://127.0.0.1:8080/api/terminal/socket');
  });

  test('links from the server: absolute ones kept, those already under the page directory kept, others put under it', () => {
    expect(serverLink('https://s3.example/file?sig=1', UNDER)).toBe('https://s3.example/file?sig=1');
    expect(serverLink('data:image/png;base64,AA', UNDER)).toBe('data:image/png;base64,AA');
    expect(serverLink('/tablo/api/files/f1?exp=1&sig=x', UNDER)).toBe('https://corp.example/tablo/api/files/f1?exp=1&sig=x');
    expect(serverLink('/user/picture/u1?v=2', UNDER)).toBe('https://corp.example/tablo/user/picture/u1?v=2');
    expect(serverLink('/api/files/f1', ROOT)).toBe('http://127.0.0.1:8080/api/files/f1');
  });

  test("the API client sends a server path under the page directory; full URLs as typed", () => {
    const vars = new Map<string, string>();
    expect(buildRequest({ ...emptyRequest(), url: '/nc/p1/api/v1/T' }, vars, UNDER).url).toBe('https://corp.example/tablo/nc/p1/api/v1/T');
    expect(buildRequest({ ...emptyRequest(), url: '/tablo/nc/p1/api/v1/T' }, vars, UNDER).url).toBe('https://corp.example/tablo/nc/p1/api/v1/T');
    expect(buildRequest({ ...emptyRequest(), url: 'https://api.example/x' }, vars, UNDER).url).toBe('https://api.example/x');
    expect(buildRequest({ ...emptyRequest(), url: '/nc/p1/api/v1/T' }, vars, ROOT).url).toBe('http://127.0.0.1:8080/nc/p1/api/v1/T');
  });
});

test("the page's scripts and styles are addressed from its directory; other links and full URLs stay", () => {
  const html = '<link rel="icon" href="data:image/svg+xml,x" /><link rel="stylesheet" crossorigin href="/chunk-a.css"><script type="module" crossorigin src="/chunk-b.js"></script><script src="//cdn.example/x.js"></script><a href="/keep">k</a>';
  expect(relativeAssets(html)).toBe(
    '<link rel="icon" href="data:image/svg+xml,x" /><link rel="stylesheet" crossorigin href="./chunk-a.css"><script type="module" crossorigin src="./chunk-b.js"></script><script src="//cdn.example/x.js"></script><a href="/keep">k</a>',
  );
});

test('a request is taken off the prefix only under it', () => {
  expect(stripPathPrefix(new Request('http://h/tablo/api/health?x=1'), '/tablo')).toMatchObject({ path: '/api/health' });
  const stripped = stripPathPrefix(new Request('http://h/tablo/api/health?x=1', { method: 'POST', body: 'b' }), '/tablo') as { request: Request };
  expect(stripped.request.url).toBe('http://h/api/health?x=1');
  expect(stripped.request.method).toBe('POST');
  expect(stripPathPrefix(new Request('http://h/tablox/api'), '/tablo')).toBeNull();
  expect(stripPathPrefix(new Request('http://h/api/health'), '/tablo')).toBeNull();
  expect(stripPathPrefix(new Request('http://h/api/health'), '')).toBeNull();
  const bare = stripPathPrefix(new Request('http://h/tablo'), '/tablo') as { redirect: Response };
  expect(bare.redirect.headers.get('location')).toBe('/tablo/');
});

test('X-Forwarded-Prefix: a plain path, trailing slashes dropped, several joined in order; anything else is no prefix', () => {
  expect(forwardedPrefix('/tablo')).toBe('/tablo');
  expect(forwardedPrefix('/tablo/')).toBe('/tablo');
  expect(forwardedPrefix('/corp/tablo')).toBe('/corp/tablo');
  expect(forwardedPrefix('/corp, /tablo')).toBe('/corp/tablo');
  expect(forwardedPrefix('/')).toBe('');
  expect(forwardedPrefix(null)).toBe('');
  for (const bad of ['tablo', '/tablo;Domain=x', '/a/../b', '/./a', '/ta blo', 'https://evil.example/x', '//evil.example', `/${'a'.repeat(250)}`, '/tablo\r\nSet-Cookie: x']) {
    expect(forwardedPrefix(bad)).toBe('');
  }
});

describe("NC_PUBLIC_URL's path", () => {
  test('links start with it; server paths and cookie paths carry it', () => {
    const config = testConfig({ publicUrl: 'https://corp.example/tablo/' });
    const request = new Request('http://10.0.0.5:8080/dashboard');
    expect(publicPath(config)).toBe('/tablo');
    expect(publicPathOf(config, '/api/files/1')).toBe('/tablo/api/files/1');
    expect(linkBase(config, request)).toBe('https://corp.example/tablo');
    expect(refreshCookie(config, 'tok', request)).toContain('; Path=/tablo/auth;');
    expect(stateCookie(config, request, 'oidc.1')).toContain('; Path=/tablo/auth;');
    const root = testConfig({ publicUrl: 'https://tablo.example.com' });
    expect(publicPath(root)).toBe('');
    expect(publicPath(testConfig())).toBe('');
    expect(refreshCookie(root, 'tok', request)).toContain('; Path=/auth;');
  });

  test("may not be one of Tablo's own paths, nor carry a query or fragment", () => {
    expect(parseConfig({ publicUrl: 'https://corp.example/tools/tablo' }).publicUrl).toBe('https://corp.example/tools/tablo');
    expect(() => parseConfig({ publicUrl: 'https://corp.example/api' })).toThrow("Invalid setting NC_PUBLIC_URL (--public-url): its path /api is one of Tablo's own; serve Tablo under another path, such as /tablo");
    expect(() => parseConfig({ publicUrl: 'https://corp.example/NC/x' })).toThrow('its path /NC is one of');
    expect(() => parseConfig({ publicUrl: 'https://corp.example/tablo?x=1' })).toThrow('expected no ?query or #fragment');
  });
});
