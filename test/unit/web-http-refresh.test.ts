/**
 * The web app's HTTP client when a call is refused with 401 and the session token is refreshed: a
 * refresh refused (401) signs out and goes to sign-in; one that gets no verdict (503 while the server's
 * metadata store is unreachable, or no answer at all) keeps the session, and the call fails with that
 * error instead; a refresh that works retries the call with the new token.
 */
import { afterAll, beforeEach, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const saved = { window: 'window' in globalThis, localStorage: 'localStorage' in globalThis };
const storage = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
});

const META_DOWN = 'The metadata database is unreachable; try again in a moment.';
/** How the server answers a refresh (set by each test), and the tokens the calls to /api carried. */
let refreshAnswer: () => Response = () => Response.json({ token: 'fresh' });
let sentTokens: (string | null)[] = [];
globalThis.fetch = (async (input: string, init?: RequestInit) => {
  if (String(input).includes('/auth/refresh-token')) return refreshAnswer();
  const auth = new Headers(init?.headers).get('xc-auth');
  sentTokens.push(auth);
  return auth === 'fresh' ? Response.json({ list: [] }) : Response.json({ msg: 'Token expired please login to continue', code: 'SESSION_EXPIRED' }, { status: 401 });
}) as unknown as typeof fetch;

const { http, HttpError } = await import('../../web/src/api/http');
const { setToken, token } = await import('../../web/src/stores/session');
const { serverReachable } = await import('../../web/src/stores/server-status');

afterAll(() => {
  globalThis.fetch = realFetch;
  for (const k of ['window', 'localStorage'] as const) if (!saved[k]) delete (globalThis as Record<string, unknown>)[k];
});

const hash = () => (globalThis as unknown as { window: { location: { hash: string } } }).window.location.hash;
/** The error `http` fails with, or null when it answers. */
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);

beforeEach(() => {
  sentTokens = [];
  setToken('expired');
  (globalThis as unknown as { window: { location: { hash: string } } }).window.location.hash = '';
});

test('a refresh answered 503 (the metadata store unreachable) keeps the session: the call fails with that message, and the banner says the server cannot be reached until an answer comes', async () => {
  refreshAnswer = () => Response.json({ msg: META_DOWN, code: 'META_UNREACHABLE' }, { status: 503 });
  const e = await failure(http('/api/thing'));
  expect(e).toBeInstanceOf(HttpError);
  expect([(e as InstanceType<typeof HttpError>).status, (e as Error).message]).toEqual([503, META_DOWN]);
  expect([token.value, hash(), serverReachable.value]).toEqual(['expired', '', false]);
  refreshAnswer = () => Response.json({ token: 'fresh' });
  await http('/api/thing');
  expect(serverReachable.value).toBe(true);
});

test('a refresh that gets no answer at all keeps the session too', async () => {
  refreshAnswer = () => {
    throw new TypeError('Failed to fetch');
  };
  const e = await failure(http('/api/thing'));
  expect((e as InstanceType<typeof HttpError>).status).toBe(0);
  expect([token.value, hash()]).toEqual(['expired', '']);
});

test('a refresh refused with 401 signs out and goes to sign-in', async () => {
  refreshAnswer = () => Response.json({ msg: 'Invalid refresh token' }, { status: 401 });
  const e = await failure(http('/api/thing'));
  expect((e as InstanceType<typeof HttpError>).status).toBe(401);
  expect([token.value, hash()]).toEqual([null, '#/user/authentication/signin']);
});

test('a refresh that works retries the call with the new token', async () => {
  refreshAnswer = () => Response.json({ token: 'fresh' });
  expect(await http('/api/thing')).toEqual({ list: [] });
  expect(sentTokens).toEqual(['expired', 'fresh']);
  expect(token.value).toBe('fresh');
});
