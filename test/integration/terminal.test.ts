/**
 * The built-in terminal over a real server (serveApp on a loopback port): refused upgrades with
 * their reasons (no auth, non-admin, foreign origin, turned off, sixth terminal), output of a
 * command, window size reaching the process, a clean environment in the workspace, the process
 * tree ended on close, on a dropped socket, on idle and on sign-out, re-attaching within the
 * grace period, and audit entries.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pidAlive, pidGone, postJson, rawUpgrade, serveTestApp, TermClient, type ServedApp } from '../helpers/terminal';

/** A home without start-up files, so shells start at once whatever this machine's profile does. */
const HOME = mkdtempSync(join(tmpdir(), 'tablo-term-home-'));
const QUIET_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME };
const HOST_ENV = {
  ...QUIET_ENV,
  LANG: 'C.UTF-8',
  NC_AUTH_JWT_SECRET: 'leak-me-jwt-secret-0123456789',
  NC_DB: 'pg://user:pw@localhost/meta',
  AWS_SECRET_ACCESS_KEY: 'leak-me-aws',
  GITHUB_TOKEN: 'leak-me-gh',
  DATABASE_URL: 'postgres://leak-me',
  MY_VISIBLE_SETTING: 'visible-value',
};

setDefaultTimeout(20_000);

let t: ServedApp;
let admin = '';
let member = '';
const open: TermClient[] = [];

/** Opens a terminal as the admin and waits for it to be ready. */
async function term(query = '') {
  const c = new TermClient(t.base, admin, query);
  open.push(c);
  return { c, ready: await c.opened() };
}

beforeAll(async () => {
  t = await serveTestApp({ host: '127.0.0.1', allowSignup: true }, { hostEnv: HOST_ENV, terminal: { detachGraceMs: 1500 } });
  admin = (await postJson(t.base, '/auth/signup', { email: 'root@example.com', password: 'password123' })).token;
  member = (await postJson(t.base, '/auth/signup', { email: 'member@example.com', password: 'password123' })).token;
});
afterAll(async () => {
  for (const c of open) c.ws.close();
  await t.close();
  rmSync(HOME, { recursive: true, force: true });
});

describe('terminal upgrade refusals', () => {
  test('without a session token: 401 with the reason', async () => {
    const r = await rawUpgrade(t.base, { origin: t.base });
    expect(r.status).toBe(401);
    expect(r.body.msg).toStartWith('Not signed in');
    const bad = await rawUpgrade(t.base, { origin: t.base, protocols: ['tablo.terminal', 'tablo.jwt.not-a-token'] });
    expect(bad.status).toBe(401);
    expect(bad.body.msg).toBe('Invalid token');
  });

  test('for a user who is not the Super Admin: 403', async () => {
    const r = await rawUpgrade(t.base, { origin: t.base, protocols: ['tablo.terminal', `tablo.jwt.${member}`] });
    expect(r).toEqual({ status: 403, body: { msg: 'Only the Super Admin can open a terminal' } });
    const status = await fetch(`${t.base}/api/terminal/status`, { headers: { 'xc-auth': member } }).then((res) => res.json());
    expect(status).toMatchObject({ enabled: true, allowed: false, refusal: 'Only the Super Admin can open a terminal' });
  });

  test('from a foreign origin, or with none: 403', async () => {
    const r = await rawUpgrade(t.base, { origin: 'http://evil.example', protocols: ['tablo.terminal', `tablo.jwt.${admin}`] });
    expect(r).toEqual({ status: 403, body: { msg: 'Origin http://evil.example may not open a terminal on this server' } });
    const none = await rawUpgrade(t.base, { protocols: ['tablo.terminal', `tablo.jwt.${admin}`] });
    expect(none).toEqual({ status: 403, body: { msg: 'The Origin header is missing' } });
  });

  test('a plain request to the socket path asks for the upgrade (426), the token is never logged', async () => {
    const res = await fetch(`${t.base}/api/terminal/socket?token=${admin}`);
    expect(res.status).toBe(426);
    expect((await res.json()).msg).toBe('This address takes a websocket upgrade only');
    await rawUpgrade(t.base, { origin: 'http://evil.example', query: `?token=${admin}` });
    expect(t.log.lines.join('\n')).not.toContain(admin);
  });

  test('when off (listening beyond loopback; or disabled, which wins over NC_TERMINAL=1): 503 saying how to turn it on', async () => {
    const wide = await serveTestApp({ host: '0.0.0.0' });
    const disabled = await serveTestApp({ host: '127.0.0.1', terminal: true, disableTerminal: true });
    const forced = await serveTestApp({ host: '0.0.0.0', terminal: true }, { hostEnv: QUIET_ENV });
    try {
      for (const s of [wide, disabled, forced]) await postJson(s.base, '/auth/signup', { email: 'root@example.com', password: 'password123' });
      const token = async (s: ServedApp) => (await postJson(s.base, '/auth/signin', { email: 'root@example.com', password: 'password123' })).token;
      const r1 = await rawUpgrade(wide.base, { origin: wide.base, protocols: [`tablo.jwt.${await token(wide)}`] });
      expect(r1.status).toBe(503);
      expect(r1.body.msg).toBe('The terminal is off because Tablo listens on 0.0.0.0, reachable from other machines. Start Tablo with HOST=127.0.0.1 (--host 127.0.0.1), or set NC_TERMINAL=1 (--terminal) to allow it on every address.');
      const r2 = await rawUpgrade(disabled.base, { origin: disabled.base, protocols: [`tablo.jwt.${await token(disabled)}`] });
      expect(r2.status).toBe(503);
      expect(r2.body.msg).toStartWith('The terminal is turned off by NC_DISABLE_TERMINAL (--disable-terminal).');
      const status = await fetch(`${disabled.base}/api/terminal/status`, { headers: { 'xc-auth': await token(disabled) } }).then((res) => res.json());
      expect(status).toMatchObject({ enabled: false, howToEnable: 'Start Tablo without NC_DISABLE_TERMINAL and --disable-terminal.' });
      // NC_TERMINAL=1 turns it on beyond loopback.
      const c = new TermClient(forced.base, await token(forced));
      expect((await c.opened()).pid).toBeGreaterThan(0);
      c.send({ type: 'close' });
      await c.until(() => !!c.closed, 'close');
    } finally {
      await Promise.all([wide.close(), disabled.close(), forced.close()]);
    }
  });
});

describe('terminal sessions', () => {
  test("a command's output arrives, in the workspace, with no Tablo secret in the environment", async () => {
    const { c, ready } = await term();
    expect(ready.cwd).toBe(join(t.dataDir, 'workspace'));
    expect(existsSync(ready.cwd)).toBe(true);
    c.type('echo "sum=$((6*7))"; pwd\r');
    await c.waitFor(/sum=42\r\n/);
    await c.waitFor(new RegExp(`[\\r\\n]${ready.cwd.replace(/[/.]/g, '\\$&')}\\r\\n`));
    c.type('env | sort; echo END-OF-ENV\r');
    await c.waitFor(/[\r\n]END-OF-ENV/);
    expect(c.output).toContain('MY_VISIBLE_SETTING=visible-value');
    expect(c.output).toContain('TERM=xterm-256color');
    expect(c.output).not.toContain('leak-me');
    expect(c.output).not.toMatch(/\nNC_/);
    c.send({ type: 'close' });
  });

  test('the window size reaches the process (stty size)', async () => {
    const { c } = await term('?cols=100&rows=30');
    c.type('stty size\r');
    await c.waitFor(/[\r\n]30 100\r\n/);
    c.send({ type: 'resize', cols: 132, rows: 43 });
    c.type('stty size\r');
    await c.waitFor(/[\r\n]43 132\r\n/);
    c.send({ type: 'close' });
  });

  test('output is held back while the browser is behind (back-pressure through XOFF), then flows on', async () => {
    const { c } = await term();
    c.type('sleep 0.5; seq 1 400000; echo "SEQ-$((1+1))-DONE"\r');
    await c.waitFor(/seq 1 400000/, 'the command line echo');
    c.send({ type: 'pause' });
    const before = c.output.length;
    await Bun.sleep(1500);
    // seq writes 2.7 MB; only what sits in the tty's buffers may pass while paused.
    expect(c.output.length - before).toBeLessThan(200_000);
    expect(c.output).not.toContain('SEQ-2-DONE');
    c.send({ type: 'resume' });
    await c.waitFor(/SEQ-2-DONE/);
    expect(c.output).toContain('\r\n400000\r\n');
    c.send({ type: 'close' });
  });

  test('closing the tab ends the whole process group: no orphan is left', async () => {
    const { c, ready } = await term();
    c.type('sleep 300 & echo "BG=$!"; (sleep 301; true) & echo "SUB=$!"; echo "SH=$$"\r');
    const bg = Number((await c.waitFor(/BG=(\d+)/))[1]);
    const sub = Number((await c.waitFor(/SUB=(\d+)/))[1]);
    expect(Number((await c.waitFor(/SH=(\d+)/))[1])).toBe(ready.pid);
    for (const pid of [bg, sub, ready.pid]) expect(pidAlive(pid)).toBe(true);
    c.send({ type: 'close' });
    await c.until(() => !!c.closed, 'the socket to close');
    expect(c.closed).toEqual({ code: 4000, reason: 'closed by the user' });
    expect(c.controls.at(-1)).toEqual({ type: 'exit', reason: 'closed by the user' });
    for (const pid of [bg, sub, ready.pid]) expect(await pidGone(pid)).toBe(true);
    const audit = await t.app.ctx.meta.all<{ description: string; user_email: string }>("SELECT description, user_email FROM nc_audit WHERE op_type = 'TERMINAL'");
    expect(audit).toContainEqual({ description: expect.stringMatching(new RegExp(`^terminal opened: .+ \\(pid ${ready.pid}\\) in `)), user_email: 'root@example.com' });
    expect(audit).toContainEqual({ description: expect.stringMatching(new RegExp(`^terminal closed: closed by the user \\(pid ${ready.pid}, open `)), user_email: 'root@example.com' });
  });

  test('a dropped socket can re-attach within the grace period (missed output sent, or the newest replayed); past it the shell ends', async () => {
    const { c, ready } = await term();
    c.type('echo before-drop\r');
    await c.waitFor(/[\r\n]before-drop/);
    c.type('sleep 0.3; echo "away-$((3*3))"\r');
    await c.waitFor(/sleep 0\.3; echo/, 'the command line echo');
    c.ws.close();
    await c.until(() => !!c.closed, 'the socket to close');
    await Bun.sleep(600);
    // Back within the grace period: the line printed while away arrives, and only what was missed.
    const back = new TermClient(t.base, admin, `?session=${ready.id}`);
    open.push(back);
    expect(await back.opened()).toMatchObject({ id: ready.id, pid: ready.pid, reattached: true });
    await back.waitFor(/(^|[\r\n])away-9/);
    expect(back.output).not.toContain('before-drop');
    back.ws.close();
    // A reloaded page (empty screen) asks for the newest output again.
    const reloaded = new TermClient(t.base, admin, `?session=${ready.id}&replay=1`);
    open.push(reloaded);
    await reloaded.opened();
    await reloaded.waitFor(/[\r\n]before-drop[\s\S]*[\r\n]away-9/);
    reloaded.type('echo after-drop\r');
    await reloaded.waitFor(/[\r\n]after-drop/);
    reloaded.ws.close();
    expect(await pidGone(ready.pid)).toBe(true);
    const gone = await rawUpgrade(t.base, { origin: t.base, protocols: [`tablo.jwt.${admin}`], query: `?session=${ready.id}` });
    expect(gone).toEqual({ status: 404, body: { msg: 'This terminal has ended' } });
  });

  test('five terminals at most: the sixth is refused with the message', async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => term()));
    const sixth = await rawUpgrade(t.base, { origin: t.base, protocols: [`tablo.jwt.${admin}`] });
    expect(sixth).toEqual({ status: 429, body: { msg: 'Only 5 terminals can be opened' } });
    five[0]!.c.send({ type: 'close' });
    await five[0]!.c.until(() => !!five[0]!.c.closed, 'close');
    const again = await term();
    for (const s of [...five.slice(1), again]) s.c.send({ type: 'close' });
    for (const s of [...five, again]) expect(await pidGone(s.ready.pid)).toBe(true);
  });

  test('signing out ends the terminals of that user', async () => {
    const session = await postJson(t.base, '/auth/signin', { email: 'root@example.com', password: 'password123' });
    const c = new TermClient(t.base, session.token);
    open.push(c);
    const ready = await c.opened();
    await postJson(t.base, '/auth/signout', {}, { 'xc-auth': session.token });
    await c.until(() => !!c.closed, 'the socket to close');
    expect(c.controls.at(-1)).toEqual({ type: 'exit', reason: 'signed out' });
    expect(await pidGone(ready.pid)).toBe(true);
  });

  test('a Super Admin who loses the role or is disabled loses their terminals at once', async () => {
    const list = await fetch(`${t.base}/admin/users?search=member@`, { headers: { 'xc-auth': admin } }).then((r) => r.json());
    const id = list.list[0].id as string;
    const edit = (body: unknown) => fetch(`${t.base}/admin/users/${id}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'xc-auth': admin }, body: JSON.stringify(body) });
    const openAsMember = async () => {
      expect((await edit({ roles: ['super', 'user'], disabled: false })).status).toBe(200);
      const session = await postJson(t.base, '/auth/signin', { email: 'member@example.com', password: 'password123' });
      const c = new TermClient(t.base, session.token);
      open.push(c);
      return { c, ready: await c.opened() };
    };
    // Well before the sweep that ends terminals of ended sessions (every 30 s).
    const soon = 3000;
    const demoted = await openAsMember();
    expect((await edit({ roles: ['user'] })).status).toBe(200);
    await demoted.c.until(() => !!demoted.c.closed, 'the socket to close', soon);
    expect(demoted.c.controls.at(-1)).toEqual({ type: 'exit', reason: 'the session ended' });
    expect(await pidGone(demoted.ready.pid)).toBe(true);

    const disabled = await openAsMember();
    expect((await edit({ disabled: true })).status).toBe(200);
    await disabled.c.until(() => !!disabled.c.closed, 'the socket to close', soon);
    expect(disabled.c.controls.at(-1)).toEqual({ type: 'exit', reason: 'the account was disabled' });
    expect(await pidGone(disabled.ready.pid)).toBe(true);
    expect((await edit({ roles: ['user'], disabled: false })).status).toBe(200);
  });
});

describe('terminal with the master key, without auth, behind a public URL', () => {
  test('the master key opens it (a wrong one is refused); auth type none needs no token; the public URL is an allowed origin', async () => {
    const keyed = await serveTestApp({ host: '127.0.0.1', adminSecret: 'master-secret-123', publicUrl: 'https://tablo.example.com' }, { hostEnv: QUIET_ENV });
    const open = await serveTestApp({ host: '127.0.0.1', authType: 'none' }, { hostEnv: QUIET_ENV });
    try {
      const key = (k: string) => `tablo.key.${Buffer.from(k).toString('base64url')}`;
      expect(await rawUpgrade(keyed.base, { origin: keyed.base, protocols: ['tablo.terminal', key('wrong-secret-000')] })).toEqual({ status: 401, body: { msg: 'Invalid master key' } });
      const ws = new WebSocket(`${keyed.base.replace('http', 'ws')}/api/terminal/socket`, { protocols: ['tablo.terminal', key('master-secret-123')], headers: { Origin: 'https://tablo.example.com' } } as any);
      const ready = await new Promise<any>((resolve, reject) => {
        ws.onmessage = (e) => typeof e.data === 'string' && resolve(JSON.parse(e.data));
        ws.onerror = () => reject(new Error('refused'));
      });
      expect(ready).toMatchObject({ type: 'ready', reattached: false });
      ws.send(JSON.stringify({ type: 'close' }));
      const audit = await keyed.app.ctx.meta.all<{ description: string; user_email: string | null }>("SELECT description, user_email FROM nc_audit WHERE op_type = 'TERMINAL'");
      expect(audit[0]).toMatchObject({ user_email: null });
      const none = new TermClient(open.base, '');
      expect((await none.opened()).pid).toBeGreaterThan(0);
      none.send({ type: 'close' });
      await none.until(() => !!none.closed, 'close');
    } finally {
      await Promise.all([keyed.close(), open.close()]);
    }
  });
});

describe('terminal idle limit', () => {
  test('a terminal idle past NC_TERMINAL_IDLE_MIN ends', async () => {
    const s = await serveTestApp({ host: '127.0.0.1', terminalIdleMin: 0.005 }, { hostEnv: QUIET_ENV });
    try {
      const token = (await postJson(s.base, '/auth/signup', { email: 'root@example.com', password: 'password123' })).token;
      const c = new TermClient(s.base, token);
      const ready = await c.opened();
      await c.until(() => !!c.closed, 'the idle terminal to end');
      expect(c.controls.at(-1)).toEqual({ type: 'exit', reason: 'idle for more than 0.01 min' });
      expect(await pidGone(ready.pid)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
