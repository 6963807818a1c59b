/**
 * Release checks against a feed served on loopback: a newer release is announced, an older or equal
 * one is not, a broken or unreachable feed says why, and without a feed the server only names its version.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { VERSION } from '../../src/version';
import { isNewer } from '../../src/updates/feed';

let feed: ReturnType<typeof Bun.serve>;
let answer: () => Response = () => Response.json({});
const apps: TestApp[] = [];

beforeAll(() => {
  feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => answer() });
});
afterAll(async () => {
  for (const a of apps) await a.close();
  feed.stop(true);
});

const bump = (v: string) => v.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, a, b) => `${a}.${Number(b) + 1}.0`);
const start = async (updateFeed?: string) => {
  const t = await makeTestApp(updateFeed ? { updateFeed } : {});
  apps.push(t);
  return t;
};
const checked = async (t: TestApp) => (await t.request('POST', '/api/v1/version/check')).body;

test('versions compare by number, a pre-release before its release', () => {
  expect(isNewer('1.10.0', '1.9.3')).toBe(true);
  expect(isNewer('1.2.0', '1.2.0')).toBe(false);
  expect(isNewer('1.2.0', '1.2.0-rc.1')).toBe(true);
  expect(isNewer('1.2.0-rc.1', '1.2.0')).toBe(false);
  expect(isNewer('0.9.9', '1.0.0')).toBe(false);
});

test('a newer release on the feed is announced with its link and notes', async () => {
  const latest = { version: bump(VERSION), url: 'http://127.0.0.1/tablo-linux-x64', sha256: 'a'.repeat(64), notes: 'Faster grids' };
  answer = () => Response.json(latest);
  const t = await start(`http://127.0.0.1:${feed.port}/latest.json`);
  const status = await checked(t);
  expect(status).toMatchObject({ version: VERSION, feed: true, newer: true, latest });
  expect(typeof status.checkedAt).toBe('string');
  expect((await t.request('GET', '/api/v1/version')).body).toEqual(status);
});

test('the same or an older version is not announced', async () => {
  answer = () => Response.json({ version: VERSION });
  const t = await start(`http://127.0.0.1:${feed.port}/latest.json`);
  expect(await checked(t)).toMatchObject({ newer: false, latest: { version: VERSION } });
});

test('a broken feed says why, and the server keeps working', async () => {
  answer = () => Response.json({ version: 'soon' });
  const t = await start(`http://127.0.0.1:${feed.port}/latest.json`);
  expect(await checked(t)).toMatchObject({ feed: true, newer: false, latest: null, error: 'The update feed is not a release: version must look like 1.2.3' });
  answer = () => new Response('down', { status: 503 });
  const t2 = await start(`http://127.0.0.1:${feed.port}/latest.json`);
  expect((await checked(t2)).error).toBe('The update feed answered 503');
  expect((await t2.request('GET', '/api/health')).status).toBe(200);
});

test('an unreachable feed does not block start-up', async () => {
  const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = closed.port;
  closed.stop(true);
  const t = await start(`http://127.0.0.1:${port}/latest.json`);
  expect((await t.request('GET', '/api/health')).status).toBe(200);
  expect(await checked(t)).toMatchObject({ feed: true, latest: null, error: 'The update feed could not be reached' });
});

test('without a feed the server names its version only', async () => {
  const t = await start();
  expect((await t.request('GET', '/api/v1/version')).body).toEqual({ version: VERSION, feed: false, latest: null, newer: false, checkedAt: null });
});
