/**
 * Release checks against a feed served on loopback: a newer release is announced, an older or equal
 * one is not, a broken or unreachable feed says why, and without a feed the server only names its version.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signupSuperAdmin } from '../helpers/auth';
import { makeTestApp, type TestApp } from '../helpers/app';
import { VERSION } from '../../src/version';
import type { Config } from '../../src/config/config';
import { isNewer } from '../../src/updates/feed';
import { installMode, installTarget } from '../../src/updates/install';

// Several tests start apps and sign up (password hashing): slow on a busy machine.
setDefaultTimeout(30_000);

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
  expect((await t.request('GET', '/api/v1/version')).body).toEqual({
    version: VERSION,
    feed: false,
    latest: null,
    newer: false,
    checkedAt: null,
    install: installTarget().inDocker ? 'docker' : 'source',
    autoUpdate: false,
    installed: null,
    installing: false,
  });
});

test('the install mode: a compiled binary updates itself unless NC_UPDATE_MODE=notice or it may not write its folder', () => {
  const binary = '/opt/tablo/tablo';
  expect(installMode({ binary, inDocker: false })).toBe('binary');
  // In a container (this machine has /.dockerenv) the compiled binary still updates itself when it may.
  expect(installMode({ binary, inDocker: true, writable: true })).toBe('binary');
  // The image runs /usr/local/bin/tablo as a user who may not write there, and sets NC_UPDATE_MODE=notice.
  expect(installMode({ binary, inDocker: true, writable: false })).toBe('docker');
  expect(installMode({ binary, inDocker: true, writable: true }, 'notice')).toBe('docker');
  expect(installMode({ binary, inDocker: false }, 'notice')).toBe('notice');
  expect(installMode({ binary, inDocker: false, writable: false })).toBe('notice');
  expect(installMode({ binary, inDocker: false, writable: false }, 'binary')).toBe('binary');
  expect(installMode({ binary: null, inDocker: false }, 'binary')).toBe('source');
  expect(installMode({ binary: null, inDocker: true })).toBe('docker');
});

describe('installing a release into the binary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tablo-update-'));
  const binary = join(dir, 'tablo');
  const NEW = new TextEncoder().encode('#!/bin/sh\necho new tablo\n');
  const sha = (b: Uint8Array) => new Bun.CryptoHasher('sha256').update(b).digest('hex');
  let download: Bun.Server<undefined>;
  let downloads = 0;
  beforeAll(() => {
    download = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => (downloads++, new Response(NEW)) });
  });
  afterAll(() => download.stop(true));
  const setup = async (release: Record<string, unknown>, target = { binary, inDocker: false }, config: Partial<Config> = {}) => {
    writeFileSync(binary, 'old tablo');
    answer = () => Response.json({ version: bump(VERSION), url: `http://127.0.0.1:${download.port}/tablo`, ...release });
    const t = await makeTestApp({ updateFeed: `http://127.0.0.1:${feed.port}/latest.json`, ...config }, { installTarget: target });
    apps.push(t);
    await checked(t);
    const token = (await signupSuperAdmin(t)).token;
    const headers = { 'xc-auth': token };
    return {
      t,
      install: () => t.request('POST', '/api/v1/version/install', { headers }),
      auto: (enabled: unknown, h: Record<string, string> = headers) => t.request('PUT', '/api/v1/version/auto', { headers: h, body: { enabled } }),
    };
  };
  /** The status once no install is running. */
  const settled = async (t: TestApp) => {
    for (let i = 0; i < 100; i++) {
      const s = (await t.request('GET', '/api/v1/version')).body;
      if (!s.installing) return s;
      await Bun.sleep(20);
    }
    throw new Error('the install did not end');
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
    expect((await spawnWhenNotBusy(binary)).stdout.toString()).toBe('new tablo\n');
    // The status names the release waiting for the next start; installing it again is refused.
    expect((await t.request('GET', '/api/v1/version')).body).toMatchObject({ installed: bump(VERSION), installing: false });
    expect((await install()).body).toEqual({ msg: `Tablo ${bump(VERSION)} is already installed: restart Tablo to run it` });
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
    // The Docker image sets NC_UPDATE_MODE=notice.
    const docker = await setup({ sha256: sha(NEW) }, { binary, inDocker: true }, { updateMode: 'notice' });
    expect((await docker.t.request('GET', '/api/v1/version')).body.install).toBe('docker');
    expect((await docker.install()).body).toEqual({ msg: 'Tablo runs in Docker: pull the new image instead' });
    expect((await docker.t.request('POST', '/api/v1/version/install')).status).toBe(401);
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
    // Docker keeps to a notice: the auto-update cannot be turned on.
    expect(await docker.auto(true)).toMatchObject({ status: 400, body: { msg: 'Tablo runs in Docker: pull the new image instead' } });
    const notice = await setup({ sha256: sha(NEW) }, { binary, inDocker: false }, { updateMode: 'notice' });
    expect((await notice.t.request('GET', '/api/v1/version')).body.install).toBe('notice');
    expect((await notice.install()).body.msg).toBe('This server only announces new versions (NC_UPDATE_MODE=notice): replace Tablo the way it was installed');
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
  });

  test('the auto-update switch is kept in the metadata store and set by the Super Admin only', async () => {
    const { t, auto } = await setup({ sha256: sha(NEW) }, { binary, inDocker: false }, { allowSignup: true });
    expect((await t.request('GET', '/api/v1/version')).body.autoUpdate).toBe(false);
    expect((await auto(true, {})).status).toBe(401);
    expect((await auto('yes')).body).toEqual({ msg: 'enabled must be true or false' });
    const member = await t.request('POST', '/auth/signup', { body: { email: 'member@example.com', password: 'password123' } });
    expect(member.status).toBe(200);
    expect((await auto(true, { 'xc-auth': member.body.token })).body).toEqual({ msg: 'Only the Super Admin updates Tablo' });
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
    expect((await auto(false)).body).toMatchObject({ autoUpdate: false });
    expect(await t.app.ctx.meta.get('SELECT value FROM nc_store WHERE key = ?', ['updates.autoInstall'])).toEqual({ value: 'off' });
  });

  test('turned on, the auto-update installs the newer release at once, checked, for the next start', async () => {
    const { t, auto } = await setup({ sha256: sha(NEW) });
    const before = downloads;
    const res = await auto(true);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ autoUpdate: true, installing: true });
    expect(await settled(t)).toMatchObject({ autoUpdate: true, installed: bump(VERSION), installing: false });
    expect(readFileSync(binary, 'utf8')).toBe('#!/bin/sh\necho new tablo\n');
    expect(readFileSync(`${binary}.old`, 'utf8')).toBe('old tablo');
    expect(t.log.lines.some((l) => l.includes(`update: Tablo ${bump(VERSION)} installed at ${binary}`))).toBe(true);
    // Later reads of the feed do not fetch the same release again.
    await t.app.updates.check();
    await settled(t);
    expect(downloads).toBe(before + 1);
  });

  test('with the auto-update on, a newer release found by a later read of the feed is installed; a bad one is not', async () => {
    const { t, auto } = await setup({ sha256: 'c'.repeat(64) });
    expect((await auto(true)).status).toBe(200);
    expect(await settled(t)).toMatchObject({ installed: null, installError: expect.stringContaining('does not match its SHA-256') });
    expect(readFileSync(binary, 'utf8')).toBe('old tablo');
    answer = () => Response.json({ version: bump(VERSION), url: `http://127.0.0.1:${download.port}/tablo`, sha256: sha(NEW) });
    await t.app.updates.check();
    let s = await settled(t);
    for (let i = 0; i < 100 && !s.installed; i++) s = (await Bun.sleep(20), await settled(t));
    expect(s).toMatchObject({ installed: bump(VERSION) });
    expect(s.installError).toBeUndefined();
    expect(readFileSync(binary, 'utf8')).toBe('#!/bin/sh\necho new tablo\n');
  });
});

/**
 * Runs a file just written, again while Linux answers ETXTBSY: a child another test forked at the moment
 * the file was open for writing holds that descriptor for a moment (nothing of the install is left open).
 */
async function spawnWhenNotBusy(file: string) {
  for (let i = 0; ; i++) {
    try {
      return Bun.spawnSync([file]);
    } catch (e) {
      if ((e as { code?: string }).code !== 'ETXTBSY' || i >= 40) throw e;
      await Bun.sleep(50);
    }
  }
}
