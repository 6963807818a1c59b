/**
 * The web app's first load of the session (loadSession): a signed-in person whose user cannot be read
 * because the server or its metadata store is unreachable (503, no answer) gets the load's failure, whose
 * page offers to try again, and keeps the token; never the sign-in page. A session the server no longer
 * knows (an empty answer) or no session at all loads as signed out.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const saved = { window: 'window' in globalThis, localStorage: 'localStorage' in globalThis };
const storage = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' }, addEventListener: () => {} },
});

const META_DOWN = 'The metadata database is unreachable; try again in a moment.';
/** How the server answers GET /user/me (set by each test). */
let meAnswer: () => Response = () => Response.json({});
globalThis.fetch = (async (input: string) => {
  const url = String(input);
  if (url.includes('/auth/type')) return Response.json({ authType: 'jwt', firstUser: false, projectHasDb: true, projectHasAdmin: true, env: 'dev', version: '0.1.0' });
  if (url.includes('/user/me')) return meAnswer();
  return Response.json({ msg: 'not in this test' }, { status: 404 });
}) as unknown as typeof fetch;

const { loadSession } = await import('../../web/src/app/session-actions');
const { setToken, token, user } = await import('../../web/src/stores/session');

afterAll(() => {
  globalThis.fetch = realFetch;
  for (const k of ['window', 'localStorage'] as const) if (!saved[k]) delete (globalThis as Record<string, unknown>)[k];
});

const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as Error & { status?: number });

beforeEach(() => {
  setToken('held');
  user.value = null;
});

test('a user read answered 503 (the metadata store unreachable) fails the load and keeps the token', async () => {
  meAnswer = () => Response.json({ msg: META_DOWN, code: 'META_UNREACHABLE' }, { status: 503 });
  const e = await failure(loadSession());
  expect([e?.status, e?.message]).toEqual([503, META_DOWN]);
  expect(token.value).toBe('held');
});

test('a user read that gets no answer at all fails the load too', async () => {
  meAnswer = () => {
    throw new TypeError('Failed to fetch');
  };
  expect((await failure(loadSession()))?.status).toBe(0);
  expect(token.value).toBe('held');
});

test('a user read answered with a user signs in; an empty answer, or none without a session, loads signed out', async () => {
  meAnswer = () => Response.json({ id: 'u1', email: 'owner@example.com', roles: { user: true } });
  await loadSession();
  expect(user.value?.email).toBe('owner@example.com');
  meAnswer = () => Response.json({});
  await loadSession();
  expect(user.value).toBeNull();
  setToken(null);
  meAnswer = () => Response.json({ msg: META_DOWN, code: 'META_UNREACHABLE' }, { status: 503 });
  await loadSession();
  expect(user.value).toBeNull();
});
