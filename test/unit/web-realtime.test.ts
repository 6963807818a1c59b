/**
 * The realtime connection of the web app against a stand-in WebSocket: after a drop it opens again,
 * subscribes again and tells the views to catch up once the server confirms the subscription (as it
 * does for views that read their rows before the server had their table's subscription); when the server ends it because the session it
 * was opened with ended (4401, e.g. the token expired after hours open), it opens again with a fresh
 * token instead of going quiet for good; a user who left the project (4403) is not tried again and is
 * sent to the projects list. The server's `resync` (changes it could not send) makes the views of the table
 * named, or of every table, read again. An outage of the server's metadata store signs no one out: a refresh
 * answered 503 is asked again later and the socket opens once it works; a socket ended with 4503 ("try
 * again") opens again with the same token; only a refresh refused with 401 signs out.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const saved = { window: 'window' in globalThis, localStorage: 'localStorage' in globalThis, location: 'location' in globalThis, WebSocket: globalThis.WebSocket };
const storage = new Map<string, string>([['tablo.token', 'first']]);
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
  location: { protocol: 'http:', host: 'tablo.test', origin: 'http://tablo.test', hash: '' },
});

/** A socket the test opens and closes by hand. */
class FakeSocket {
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string, readonly protocols: string[]) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  /** A message from the server. */
  reply(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  get token() {
    return this.protocols.find((p) => p.startsWith('tablo.jwt.'))?.slice('tablo.jwt.'.length);
  }
}
(globalThis as { WebSocket: unknown }).WebSocket = FakeSocket;

let refreshes = 0;
/** How the server answers a refresh: a fresh token unless a test says otherwise (the store unreachable, a refusal). */
let refreshAnswer: (() => Response) | null = null;
globalThis.fetch = (async (input: string) => {
  if (String(input).includes('/auth/refresh-token')) {
    ++refreshes;
    return refreshAnswer?.() ?? Response.json({ token: `fresh-${refreshes}` });
  }
  return Response.json({ msg: 'not in this test' }, { status: 404 });
}) as unknown as typeof fetch;

const { liveConnection, closeLiveConnection } = await import('../../web/src/stores/realtime');
const { setToken } = await import('../../web/src/stores/session');

afterAll(() => {
  closeLiveConnection();
  globalThis.fetch = realFetch;
  (globalThis as { WebSocket: unknown }).WebSocket = saved.WebSocket;
  for (const k of ['window', 'localStorage', 'location'] as const) if (!saved[k]) delete (globalThis as Record<string, unknown>)[k];
});

const settle = (ms = 5) => new Promise((r) => setTimeout(r, ms));
const last = () => FakeSocket.all.at(-1)!;

beforeEach(() => {
  closeLiveConnection();
  FakeSocket.all = [];
  refreshes = 0;
  refreshAnswer = null;
  setToken('first');
  (globalThis as unknown as { window: { location: { hash: string } } }).window.location.hash = '';
});

test('a socket ended because its session expired opens again with a fresh token, subscribes again and catches up', async () => {
  const events: string[] = [];
  const live = liveConnection('p1');
  live.subscribe('Customer', (e) => events.push(e.type));
  last().open();
  expect(last().sent).toEqual([{ type: 'subscribe', table: 'Customer' }]);
  last().reply({ type: 'ok', tables: ['Customer'] });
  expect(events).toEqual(['resync']);
  last().drop(4401);
  await settle();
  expect(refreshes).toBe(1);
  expect(FakeSocket.all).toHaveLength(2);
  expect(last().token).toBe('fresh-1');
  last().open();
  expect(last().sent).toEqual([{ type: 'subscribe', table: 'Customer' }]);
  // It catches up once the server has the subscription again, not before (a change made between would be lost).
  expect(events).toEqual(['resync']);
  last().reply({ type: 'ok', tables: ['Customer'] });
  expect(events).toEqual(['resync', 'resync']);
});

test('a listener added before the server confirmed its table catches up when it does; one added after does not', () => {
  const first: string[] = [];
  const later: string[] = [];
  const live = liveConnection('p5');
  live.subscribe('Track', (e) => first.push(e.type));
  last().open();
  // Its rows may have been read before the server sends it the table's changes.
  expect(first).toEqual([]);
  last().reply({ type: 'ok', tables: [] });
  expect(first).toEqual([]);
  last().reply({ type: 'ok', tables: ['Track'] });
  expect(first).toEqual(['resync']);
  // Read after the confirmation: every later change is sent to it.
  live.subscribe('Track', (e) => later.push(e.type));
  last().reply({ type: 'ok', tables: ['Track'] });
  expect(first).toEqual(['resync']);
  expect(later).toEqual([]);
});

test('a token refreshed meanwhile by the app is used as it is', async () => {
  const live = liveConnection('p2');
  live.subscribe('Customer', () => {});
  last().open();
  setToken('refreshed-by-a-call');
  last().drop(4401);
  await settle();
  expect(refreshes).toBe(0);
  expect(last().token).toBe('refreshed-by-a-call');
});

test('a user who left the project is not tried again', async () => {
  liveConnection('p3').subscribe('Customer', () => {});
  last().open();
  last().drop(4403);
  await settle(700);
  expect(FakeSocket.all).toHaveLength(1);
  // The project's pages give way to the projects list (with a notice), rather than rows that no longer follow.
  expect((globalThis as unknown as { window: { location: { hash: string } } }).window.location.hash).toBe('#/projects');
});

test('who else shows a table is kept while the table is shown, and forgotten when it is not or the socket drops', async () => {
  const { presence } = await import('../../web/src/stores/presence');
  const live = liveConnection('p4');
  const off = live.subscribe('Customer', () => {});
  last().open();
  const ada = { id: 'u2', email: 'ada@example.com', color: '#0b5cad' };
  last().onmessage?.({ data: JSON.stringify({ type: 'presence', table: 'Customer', users: [ada] }) });
  // A table not shown here is not taken.
  last().onmessage?.({ data: JSON.stringify({ type: 'presence', table: 'Album', users: [ada] }) });
  expect(presence.value).toEqual({ Customer: [ada] });
  off();
  expect(presence.value).toEqual({});
  live.subscribe('Customer', () => {});
  last().onmessage?.({ data: JSON.stringify({ type: 'presence', table: 'Customer', users: [ada] }) });
  last().drop(1006);
  expect(presence.value).toEqual({});
});

test('the server saying changes were missed makes the views of the table named, or of every table, read again', () => {
  const rows: string[] = [];
  const other: string[] = [];
  let views = 0;
  let comments = 0;
  const live = liveConnection('p6');
  live.subscribe('Customer', (e) => rows.push(e.type));
  live.subscribe('Album', (e) => other.push(e.type));
  live.onViews('Customer', () => views++);
  live.onComments('Customer', () => comments++);
  last().open();
  last().reply({ type: 'ok', tables: ['Customer', 'Album'] });
  expect([rows, other]).toEqual([['resync'], ['resync']]);
  // One table's rows: only its views read them again.
  last().reply({ type: 'resync', table: 'Customer' });
  expect([rows, other, views, comments]).toEqual([['resync', 'resync'], ['resync'], 0, 0]);
  // Everything: rows, saved views and comments of every table shown.
  last().reply({ type: 'resync' });
  expect([rows, other, views, comments]).toEqual([['resync', 'resync', 'resync'], ['resync', 'resync'], 1, 1]);
});

/** Waits until `ok` holds (checked every 10 ms; a stuck condition fails after 5 s). */
async function until(ok: () => boolean) {
  for (let i = 0; i < 500 && !ok(); i++) await settle(10);
  expect(ok()).toBe(true);
}
const hash = () => (globalThis as unknown as { window: { location: { hash: string } } }).window.location.hash;

test('a refresh answered 503 (the metadata store unreachable) keeps the session and is asked again until it works', async () => {
  const { token } = await import('../../web/src/stores/session');
  const rows: string[] = [];
  const live = liveConnection('p7');
  live.subscribe('Customer', (e) => rows.push(e.type));
  last().open();
  last().reply({ type: 'ok', tables: ['Customer'] });
  refreshAnswer = () => Response.json({ msg: 'The metadata database is unreachable; try again in a moment.' }, { status: 503 });
  last().drop(4401);
  await settle();
  expect(refreshes).toBe(1);
  expect([token.value, hash(), FakeSocket.all.length]).toEqual(['first', '', 1]);
  // Asked again after a wait (0.5 s at first); still no verdict: still signed in.
  await until(() => refreshes === 2);
  await settle();
  expect([token.value, hash(), FakeSocket.all.length]).toEqual(['first', '', 1]);
  // The store is back: the next refresh works and the socket opens with its token, then catches up.
  refreshAnswer = null;
  await until(() => FakeSocket.all.length === 2);
  expect(refreshes).toBe(3);
  expect(last().token).toBe('fresh-3');
  last().open();
  last().reply({ type: 'ok', tables: ['Customer'] });
  expect(rows).toEqual(['resync', 'resync']);
});

test('no answer at all to the refresh keeps the session too', async () => {
  const { token } = await import('../../web/src/stores/session');
  liveConnection('p8').subscribe('Customer', () => {});
  last().open();
  refreshAnswer = () => {
    throw new TypeError('Failed to fetch');
  };
  last().drop(4401);
  await settle();
  expect(refreshes).toBe(1);
  expect([token.value, hash()]).toEqual(['first', '']);
});

test('a refresh refused with 401 signs out and goes to sign-in', async () => {
  const { token } = await import('../../web/src/stores/session');
  liveConnection('p9').subscribe('Customer', () => {});
  last().open();
  refreshAnswer = () => Response.json({ msg: 'Invalid refresh token' }, { status: 401 });
  last().drop(4401);
  await settle();
  expect([token.value, hash()]).toEqual([null, '#/user/authentication/signin']);
});

test('a socket ended with 4503 (its rights could not be checked) opens again with the same token, without a refresh', async () => {
  const rows: string[] = [];
  liveConnection('p10').subscribe('Customer', (e) => rows.push(e.type));
  last().open();
  last().reply({ type: 'ok', tables: ['Customer'] });
  last().drop(4503);
  await until(() => FakeSocket.all.length === 2);
  expect([refreshes, last().token]).toEqual([0, 'first']);
  last().open();
  last().reply({ type: 'ok', tables: ['Customer'] });
  expect(rows).toEqual(['resync', 'resync']);
});
