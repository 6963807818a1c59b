/**
 * GET /api/health tells a load balancer whether this instance can work: 200 while the metadata
 * store answers a ping, 503 {msg} within about 2 s while it is down or hangs (never a 500, never a
 * wait on the store), and 200 again once it is back. The metadata store sits behind a TCP proxy
 * the test closes, stalls and reopens.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { makeTestApp, type TestApp } from '../helpers/app';
import { PG, describeEngines } from '../helpers/engines';
import { freshMetaDb } from '../helpers/meta-db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';

const MSG = 'The metadata database is unreachable; try again in a moment.';

/** Status, body and how long the answer took. */
async function health(t: TestApp) {
  const start = performance.now();
  const res = await t.request('GET', '/api/health');
  return { status: res.status, body: res.body, ms: performance.now() - start };
}

/** Polls until `ok` or the time is up; answers whether it came true. */
async function within(ms: number, ok: () => Promise<boolean>): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await Bun.sleep(100)) if (await ok()) return true;
  return false;
}

test('with the SQLite metadata store the health check answers 200', async () => {
  const t = await makeTestApp({ metaDb: undefined });
  try {
    const res = await health(t);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true });
  } finally {
    await t.close();
  }
});

describeEngines(
  'health with the metadata store on PostgreSQL',
  () => {
    let proxy: TcpProxy;
    let meta: { url: string; name: string; drop(): Promise<void> };
    let t: TestApp;
    beforeAll(async () => {
      meta = await freshMetaDb('health');
      proxy = startTcpProxy(PG.host, PG.port);
      t = await makeTestApp({ metaDb: `postgres://${PG.user}@127.0.0.1:${proxy.port}/${meta.name}` });
    });
    afterAll(async () => {
      proxy.down();
      await t.close().catch(() => {});
      await meta.drop();
    });

    test('200 while the store answers, also to many checks at once', async () => {
      const all = await Promise.all(Array.from({ length: 50 }, () => health(t)));
      expect(all.map((r) => r.status)).toEqual(Array(50).fill(200));
      expect(all[0]!.body).toMatchObject({ ok: true });
    });

    test('the store refuses connections: 503 {ok: false, msg}, then 200 once it is back', async () => {
      proxy.down();
      // An answer is reused for about a second.
      expect(await within(3000, async () => (await health(t)).status !== 200)).toBe(true);
      const res = await health(t);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ ok: false, msg: MSG });
      proxy.up();
      expect(await within(10_000, async () => (await health(t)).status === 200)).toBe(true);
    }, 20_000);

    test('the store hangs: 503 after the 2 s limit, and no check waits on the hung ping again', async () => {
      await Bun.sleep(1100);
      proxy.stall();
      const first = await Promise.all(Array.from({ length: 20 }, () => health(t)));
      expect(first.map((r) => r.status)).toEqual(Array(20).fill(503));
      for (const r of first) expect(r.ms).toBeLessThan(3000);
      expect(first[0]!.body).toMatchObject({ ok: false, msg: MSG });
      // Past the second the answer is reused, the ping still hangs: no new ping, an answer at once.
      await Bun.sleep(1100);
      const again = await health(t);
      expect(again.status).toBe(503);
      // Waiting on the hung ping would take its 2 s limit.
      expect(again.ms).toBeLessThan(1500);
      // The hung connections are cut, the store is back: healthy again.
      proxy.down();
      proxy.up();
      expect(await within(10_000, async () => (await health(t)).status === 200)).toBe(true);
    }, 30_000);
  },
  ['pg'],
);
