/**
 * A member whose network drops without a word (no close frame, no FIN: their socket just goes silent,
 * here through a TCP proxy that stops passing anything) leaves the others' presence within about
 * 30 s, not after two minutes: the server pings a socket that went quiet and ends it when no pong
 * comes back. A member whose socket answers the pings stays, however long they say nothing.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import { postJson, serveTestApp, type ServedApp } from '../helpers/terminal';
import { loadChinook } from '../helpers/chinook';
import { dropDatabase } from '../helpers/engines';
import { LiveClient } from '../helpers/live-client';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

setDefaultTimeout(90_000);

let t: ServedApp;
let proxy: TcpProxy;
let owner = '';
let editor = '';
let pid = '';
const clients: LiveClient[] = [];
const api = (path: string, body: unknown) =>
  fetch(`${t.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'xc-auth': owner }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));

beforeAll(async () => {
  t = await serveTestApp({ host: '127.0.0.1', allowSignup: true });
  owner = (await postJson(t.base, '/auth/signup', { email: 'owner@example.com', password: 'password123' })).token;
  const cfg = await loadChinook('sqlite', 'tablo_t_presence_drop', { fresh: true });
  await Bun.write(join(t.dataDir, 'here.sqlite'), Bun.file(cfg.connection.filename!));
  pid = (await api('/dashboard?q=sqlOp_projectCreateByWeb', { api: 'projectCreateByWeb', args: { title: 'Here', db: { client: 'sqlite', connection: { filename: 'here.sqlite' } } } })).body.id;
  const invite = await api('/admin', { email: 'editor@example.com', roles: 'editor', project_id: pid });
  editor = (await postJson(t.base, '/auth/signup', { email: 'editor@example.com', password: 'password123', token: String(invite.body.invite_url).split('/signup/')[1] })).token;
  proxy = startTcpProxy('127.0.0.1', Number(new URL(t.base).port));
});
afterAll(async () => {
  for (const c of clients) c.ws.close();
  proxy?.down();
  await t.close();
  await dropDatabase('sqlite', 'tablo_t_presence_drop');
});

const live = async (base: string, token: string, table: string) => {
  const c = new LiveClient(base, pid, { token });
  clients.push(c);
  await c.opened;
  await c.next((m) => m.type === 'hello');
  await c.ask({ type: 'subscribe', table });
  return c;
};

describe('presence after a dropped network', () => {
  test('a member whose socket goes silent leaves the others’ presence within about 30 s; one who answers pings stays', async () => {
    const o = await live(t.base, owner, 'Customer');
    // The editor reaches the server through the proxy: their network can drop.
    const e = await live(`http://127.0.0.1:${proxy.port}`, editor, 'Customer');
    expect(e.others('Customer')).toEqual(['owner@example.com']);
    await o.next((m) => m.type === 'presence' && m.users.length === 1);

    const from = o.messages.length;
    const dropped = Date.now();
    proxy.stall();
    // Within about 30 s (it took two minutes before): waited for 45 s at most.
    const gone = await o.next((m) => m.type === 'presence' && m.table === 'Customer' && m.users.length === 0, from, 45_000);
    const took = (Date.now() - dropped) / 1000;
    console.log(`a silent member left the others' presence ${took.toFixed(1)} s after their network dropped`);
    expect(gone.users).toEqual([]);
    // Bun's timer ticks every 4 s: the socket ends at most a tick after its 30 s of silence.
    expect(took).toBeLessThanOrEqual(35);
    // The owner said nothing all that while either, but answered the server's pings: still connected, still told.
    expect(o.closed).toBeNull();
    await o.ask({ type: 'ping', table: 'Customer' });
    expect(o.closed).toBeNull();
  });
});
