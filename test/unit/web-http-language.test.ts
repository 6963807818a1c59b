/**
 * The web app tells the server the language of the interface on every call (Accept-Language), so
 * the mails the server writes for it (an invite, a password reset) read as the screen they were
 * asked from; uploads with progress (XMLHttpRequest) carry it too.
 */
import { afterAll, expect, test } from 'bun:test';

const realFetch = globalThis.fetch;
const saved = { window: 'window' in globalThis, localStorage: 'localStorage' in globalThis };
const storage = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
});
let sent: Headers | undefined;
globalThis.fetch = (async (_input: string, init?: RequestInit) => {
  sent = new Headers(init?.headers);
  return Response.json({ msg: 'ok' });
}) as unknown as typeof fetch;

const { http, authHeaders } = await import('../../web/src/api/http');
const { locale } = await import('../../web/src/i18n/locales');

afterAll(() => {
  globalThis.fetch = realFetch;
  for (const k of ['window', 'localStorage'] as const) if (!saved[k]) delete (globalThis as Record<string, unknown>)[k];
});

test('calls carry the chosen language of the interface as Accept-Language', async () => {
  locale.value = 'fr';
  await http('/auth/password/forgot', { body: { email: 'a@example.com' }, noRefresh: true });
  expect(sent?.get('accept-language')).toBe('fr');
  locale.value = 'zh_CN';
  await http('/admin', { method: 'POST', body: {} });
  expect(sent?.get('accept-language')).toBe('zh-CN');
  expect(authHeaders('/nc/p/api/v1/T/1/attachments/files')['accept-language']).toBe('zh-CN');
  locale.value = 'en';
});
