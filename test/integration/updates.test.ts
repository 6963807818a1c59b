/**
 * Release checks against a feed served on loopback: a newer release is announced, an older or equal
 * one is not, a broken or unreachable feed says why, and without a feed the server only names its version.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signupSuperAdmin } from '../helpers/auth';
import { makeTestApp, type TestApp } from '../helpers/app';
import { VERSION } from '../../src/version';
import { isNewer } from '../../src/updates/feed';
import { installTarget } from '../../src/updates/install';

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
  expect((await t.request('GET', '/api/v1/version')).body).toEqual({ version: VERSION, feed: false, latest: null, newer: false, checkedAt: null, install: installTarget().inDocker ? 'docker' : 'source' });
});

describe('installing a release into the binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tablo-update-'));
  const binary = join(dir, 'tablo');
  const NEW = new TextEncoder().encode('#!/bin/sh\necho new tablo\n');
  const sha = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');
  let download: Bun.Server<undefined>;
  beforeAll(() => {
    download = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(NEW) });
  });
  afterAll(() => download.stop(true));
  const setup = async (release: Record<string, unknown>, target = { binary, inDocker: false }) => {
    writeFileSync(binary, 'old tablo');
    answer = () => Response.json({ version: bump(VERSION), url: `http://127.0.0.1:${download.port}/tablo`, ...release });
    const t = await makeTestApp({ updateFeed: `http://127.0.0.1:${feed.port}/latest.json` }, { installTarget: target });
    apps.push(t);
    await checked(t);
    const token = (await signupSuperAdmin(t)).token;
    return { t, install: () => t.request('POST', '/api/v1/version/install', { headers: { 'xc-auth': token } }) };
  };

  test('the download is checked against its SHA-256 and takes the binary\'s place; the old one is kept', async () => {
    const { t, install } = await setup({ sha256: sha(NEW) });
    expect((await t.request('GET', '/api/v1/version')).body.install).toBe('binary');
    const res = await install();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ msg: `Tablo ${bump(VERSION)} is installed: restart Tablo to run it`, installed: binary, previous: `${binary}.old` });
    expect(readFileSync(binary, 'utf8')).toBe('#!/bin/sh\necho new tablo\n');
    expect(readFileSync(`${binary}.old`, 'utf8')).toBe('old tablo');
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    expect(existsSync(`${binary}.new`)).toBe(false);
    // The next start runs the new file.
    expect(Bun.spawnSync([binary]).stdout.toString()).toBe('new tablo\n');
  });

  test('a download that does not match its SHA-256 replaces nothing', async () => {
    const { install } = await setup({ sha256: 'b'.repeat(64) });
    const res = await install();
    expect(res.status).toBe(409);
    expect(res.body.msg).toContain('does not match its SHA-256');
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
    expect(existsSync(`${binary}.new`)).toBe(false);
  });

  test('without a SHA-256, in Docker, or for a member, nothing is installed', async () => {
    expect((await (await setup({})).install()).body.msg).toContain('names no SHA-256');
    const docker = await setup({ sha256: sha(NEW) }, { binary, inDocker: true });
    expect((await docker.t.request('GET', '/api/v1/version')).body.install).toBe('docker');
    expect((await docker.install()).body).toEqual({ msg: 'Tablo runs in Docker: pull the new image instead' });
    expect((await docker.t.request('POST', '/api/v1/version/install')).status).toBe(401);
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
  });
});
