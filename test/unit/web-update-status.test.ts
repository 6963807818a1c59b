/**
 * The update status of the web app (banner, Version & Updates): read when the page loads, then again
 * every 10 minutes (spec 9: release check every 600000 ms), so a dashboard left open for days learns
 * of a release the server found meanwhile. Timers are the test's own (no waiting).
 */
import { afterAll, expect, jest, test } from 'bun:test';

const realFetch = globalThis.fetch;
const storage = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
  window: { location: { origin: 'http://tablo.test', href: 'http://tablo.test/', hash: '' } },
  location: { protocol: 'http:', host: 'tablo.test', origin: 'http://tablo.test', hash: '' },
});

// The server's answers: no newer release at first, one once the feed announced it.
let reads = 0;
let latest: string | null = null;
globalThis.fetch = (async (input: string) => {
  if (!new URL(String(input)).pathname.startsWith('/api/v1/version')) return Response.json({ msg: 'not in this test' }, { status: 404 });
  reads++;
  return Response.json({ version: '1.0.0', newer: latest !== null, latest: latest ? { version: latest, url: null, sha256: null, notes: '' } : null, installing: false });
}) as unknown as typeof fetch;

afterAll(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

/** Lets the answers of reads already sent arrive. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

test('the status is read at load and again every 10 minutes; a release found meanwhile shows', async () => {
  jest.useFakeTimers();
  const { loadUpdateStatus, updateStatus } = await import('../../web/src/features/settings/update-status');
  const { LIMITS } = await import('../../web/src/lib/limits');
  expect(LIMITS.releaseCheckMs).toBe(600_000);
  await loadUpdateStatus();
  await loadUpdateStatus();
  expect(reads).toBe(1);
  expect(updateStatus.value?.newer).toBe(false);
  latest = '1.1.0';
  jest.advanceTimersByTime(599_000);
  await settle();
  expect(reads).toBe(1);
  jest.advanceTimersByTime(1_000);
  await settle();
  expect(reads).toBe(2);
  expect(updateStatus.value).toMatchObject({ newer: true, latest: { version: '1.1.0' } });
  jest.advanceTimersByTime(600_000);
  await settle();
  expect(reads).toBe(3);
});
