/**
 * The metadata store on both engines (bun:sqlite and PostgreSQL): migrations, repositories,
 * transactions, store-counted rate limits, leases, cross-instance invalidation, an outage of
 * the PostgreSQL store (503, then recovery), lost messages made up for by a resync and `tablo meta
 * copy` both ways.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteMetaStore } from '../../src/meta/sqlite-store';
import { openPgMetaStore, toDollarParams } from '../../src/meta/pg-store';
import { migrateMeta } from '../../src/meta/migrate';
import { META_MIGRATIONS } from '../../migrations/index';
import type { MetaStore } from '../../src/meta/store';
import { usersRepo } from '../../src/meta/users-repo';
import { projectsRepo } from '../../src/meta/projects-repo';
import { aclRepo } from '../../src/meta/acl-repo';
import { auditRepo } from '../../src/meta/audit-repo';
import { keyRange } from '../../src/meta/audit-key-range';
import { modelsRepo } from '../../src/meta/models-repo';
import { leases } from '../../src/meta/leases';
import { invalidation } from '../../src/meta/invalidation';
import { RateLimiter } from '../../src/http/rate-limit';
import { isAppError } from '../../src/lib/errors';
import { describeEngines, PG } from '../helpers/engines';
import { boot } from '../../src/boot/boot';
import { testConfig } from '../../src/config/config';
import { freshMetaDb, pgMetaUrl } from '../helpers/meta-db';
import { startTcpProxy } from '../helpers/tcp-proxy';

const sqliteFile = () => join(mkdtempSync(join(tmpdir(), 'tablo-meta-store-')), 'tablo.db');

/** Waits until `check` holds (the invalidation tests' bound: 1 second). */
async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await Bun.sleep(10);
  }
  return check();
}

test('? placeholders become $n outside quoted text', () => {
  expect(toDollarParams("SELECT ? , '?' AS \"a?\", ? FROM t WHERE x LIKE ? ESCAPE '\\'")).toBe("SELECT $1 , '?' AS \"a?\", $2 FROM t WHERE x LIKE $3 ESCAPE '\\'");
  expect(toDollarParams("SELECT ? -- isn't it?\n, ?")).toBe("SELECT $1 -- isn't it?\n, $2");
});

describeEngines(
  'metadata store',
  (engine) => {
    const drops: Array<() => Promise<void>> = [];
    const opened: MetaStore[] = [];
    /** A fresh, migrated store of this suite's engine; `url` for PostgreSQL. */
    const fresh = async (): Promise<{ store: MetaStore; url?: string }> => {
      if (engine === 'sqlite') {
        const store = openSqliteMetaStore(sqliteFile());
        opened.push(store);
        await migrateMeta(store);
        return { store };
      }
      const db = await freshMetaDb('store');
      drops.push(db.drop);
      const store = openPgMetaStore(db.url);
      opened.push(store);
      await migrateMeta(store);
      return { store, url: db.url };
    };
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close().catch(() => {})));
      await Promise.all(drops.map((d) => d().catch(() => {})));
    }, 30_000);

    test('migrations apply once each, are recorded, and two instances starting together apply them once', async () => {
      const { store, url } = await fresh();
      expect(await migrateMeta(store)).toEqual([]);
      const rows = await store.all<{ version: number }>('SELECT version FROM nc_meta_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(META_MIGRATIONS.map((m) => m.version));
      if (engine === 'pg') {
        const db = await freshMetaDb('race');
        drops.push(db.drop);
        const a = openPgMetaStore(db.url);
        const b = openPgMetaStore(db.url);
        opened.push(a, b);
        const [x, y] = await Promise.all([migrateMeta(a), migrateMeta(b)]);
        expect([...x, ...y].sort((p, q) => p - q)).toEqual(META_MIGRATIONS.map((m) => m.version));
        expect(url).toContain('postgres://');
      }
    });

    test('users: created, found by e-mail whatever its case, unique e-mails, counts are numbers', async () => {
      const { store } = await fresh();
      const users = usersRepo(store);
      const u = await users.create({ email: 'Ann@Example.com', passwordHash: 'h', roles: 'super,user' });
      expect((await users.byEmail('ann@example.com'))?.id).toBe(u.id);
      expect(await users.count()).toBe(1);
      await expect(users.create({ email: 'ann@EXAMPLE.com', passwordHash: 'h', roles: 'user' })).rejects.toThrow();
      expect(u.token_version).toBe(0);
      await users.setPassword(u.id, 'h2');
      expect((await users.byId(u.id))!.token_version).toBe(1);
    });

    test('projects, members, rights, models and audit behave the same', async () => {
      const { store } = await fresh();
      const u = await usersRepo(store).create({ email: 'owner@example.com', passwordHash: 'h', roles: 'user' });
      const projects = projectsRepo(store);
      await projects.create(
        { id: 'p_1', title: 'Sales', status: 'started', project_type: 'rest', working_env: 'dev', created_by: u.id },
        { env: 'dev', db_alias: 'db', client: 'sqlite', connection_enc: 'x', is_xcdb: 1, inflection_table: 'camelize', inflection_column: 'camelize' },
      );
      expect(await projects.memberRoles('p_1', u.id)).toEqual(['owner']);
      expect((await projects.listForUser(u.id)).map((p) => [p.id, p.roles])).toEqual([['p_1', 'owner']]);
      expect(await projects.titleTaken('SALES')).toBe(true);
      expect((await projects.dbs('p_1'))[0]!.is_xcdb).toBe(1);

      const acl = aclRepo(store);
      await acl.save('p_1', 'db', 'Customer', 'editor', { read: ['Name'], create: false, update: false, delete: false, where: '(Country,eq,Brazil)' });
      await acl.save('p_1', 'db', 'Customer', 'editor', { read: true, create: true, update: false, delete: false, where: null });
      expect((await acl.rules('p_1', 'db')).get('Customer')!.editor!.read).toBe(true);
      await acl.setEnabled('p_1', 'db', 'table', 'Customer', 'viewer', false);
      await acl.setEnabled('p_1', 'db', 'table', 'Customer', 'viewer', false);
      expect([...(await acl.disabled('p_1', 'db')).values()].map((s) => [...s])).toEqual([['viewer']]);

      await modelsRepo(store).set('p_1', 'db', 'Customer', { _tn: 'Clients' });
      await modelsRepo(store).set('p_1', 'db', 'Customer', { _tn: 'Customers' });
      expect((await modelsRepo(store).all('p_1', 'db')).get('Customer')).toEqual({ _tn: 'Customers' });

      const audit = auditRepo(store);
      await audit.write({ op_type: 'DATA', project_id: 'p_1', tn: 'Customer', description: 'insert' });
      await audit.write({ op_type: 'AUTHENTICATION', user_email: 'Owner@Example.com', description: 'signed in' });
      expect((await audit.list({ project_id: 'p_1' })).map((e) => e.description)).toEqual(['insert']);
      expect((await audit.list({})).map((e) => e.description)).toEqual(['signed in', 'insert']);
      const found = await audit.search({ search: 'OWNER@' }, 10, 0);
      expect([found.total, found.rows[0]!.description]).toEqual([1, 'signed in']);
      expect(typeof found.rows[0]!.id).toBe('number');

      await projects.delete('p_1');
      expect(await store.get('SELECT 1 AS x FROM nc_acl')).toBeUndefined();
    });

    test("a bulk insert's one entry is found by each of its rows' keys through its key range", async () => {
      const { store } = await fresh();
      const audit = auditRepo(store);
      const batch = (ids: (string | null)[]) => {
        const range = keyRange(ids);
        return { op_type: 'DATA' as const, project_id: 'p_1', db_alias: 'db', tn: 't', pk: '', description: 'insert', user_email: 'ann@example.com', value: JSON.stringify({ ids, rows: ids.map((id, i) => ({ id, n: i })) }), pk_lo: range.lo, pk_hi: range.hi };
      };
      // 1..9 and 10..12 (as numbers, not text: '10' < '9'), text keys, a batch whose keys are not known,
      // and an entry written before ranges were kept.
      await audit.writeMany([batch(['1', '5', '9']), batch(['10', '11', '12']), batch(['b-2', 'a-1', 'é']), batch([null, null])]);
      await audit.write({ op_type: 'DATA', project_id: 'p_1', db_alias: 'db', tn: 't', pk: '', description: 'insert', value: JSON.stringify({ ids: ['700'], rows: [{ id: '700' }] }) });
      const of = async (pk: string) => {
        const e = await audit.bulkInsertOf('p_1', 'db', 't', pk);
        return e ? [e.user_email, JSON.parse(e.value!)] : null;
      };
      expect(await of('9')).toEqual(['ann@example.com', { id: '9', n: 2 }]);
      expect(await of('10')).toEqual(['ann@example.com', { id: '10', n: 0 }]);
      expect(await of('é')).toEqual(['ann@example.com', { id: 'é', n: 2 }]);
      expect(await of('700')).toEqual([null, { id: '700' }]);
      // Inside a range but not among its keys; outside every range; another table.
      expect(await of('6')).toBeNull();
      expect(await of('13')).toBeNull();
      expect(await audit.bulkInsertOf('p_1', 'db', 'other', '5')).toBeUndefined();
    });

    test('transactions commit together, roll back together, and take turns', async () => {
      const { store } = await fresh();
      await store.exec('CREATE TABLE nc_t (x INTEGER)');
      await expect(
        store.transaction(async (tx) => {
          await tx.run('INSERT INTO nc_t (x) VALUES (?)', [1]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.all('SELECT * FROM nc_t')).toEqual([]);
      // Two read-then-write transactions at once: the second sees the first's row (no lost update).
      const bump = () =>
        store.transaction(async (tx) => {
          const n = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM nc_t'))!.n;
          await Bun.sleep(30);
          await tx.run('INSERT INTO nc_t (x) VALUES (?)', [n]);
        });
      await Promise.all([bump(), bump()]);
      expect((await store.all<{ x: number }>('SELECT x FROM nc_t ORDER BY x')).map((r) => r.x)).toEqual([0, 1]);
      expect(await store.transaction(async (tx) => tx.transaction(async (inner) => (await inner.run('DELETE FROM nc_t')).changes))).toBe(2);
    });

    test('leases: one holder at a time, taken over when lapsed; a claim wins once', async () => {
      const { store } = await fresh();
      const a = leases(store, 'instance-a');
      const b = leases(store, 'instance-b');
      expect(await a.acquire('worker', 200)).toBe(true);
      expect(await b.acquire('worker', 200)).toBe(false);
      expect(await a.acquire('worker', 200)).toBe(true);
      expect((await b.holderOf('worker'))?.holder).toBe('instance-a');
      await Bun.sleep(250);
      expect(await b.acquire('worker', 1000)).toBe(true);
      expect(await a.acquire('worker', 1000)).toBe(false);
      await b.release('worker');
      expect(await a.acquire('worker', 1000)).toBe(true);
      const wins = await Promise.all([a.claim('cron:1:tick', 60_000), b.claim('cron:1:tick', 60_000)]);
      expect(wins.filter(Boolean).length).toBe(1);
    });

    test('rate limits: counted in the store on PostgreSQL (shared by instances), in memory on SQLite', async () => {
      const { store, url } = await fresh();
      const one = new RateLimiter(3, 60_000, store);
      await one.hit('k');
      await one.hit('k');
      if (engine === 'pg') {
        const other = openPgMetaStore(url!);
        opened.push(other);
        const two = new RateLimiter(3, 60_000, other);
        await two.hit('k');
        const err = await two.hit('k').catch((e) => e);
        expect(isAppError(err) && err.status).toBe(429);
        expect(Number(err.headers['retry-after'])).toBeGreaterThan(0);
      } else {
        await one.hit('k');
        expect(await one.hit('k').catch((e) => e.status)).toBe(429);
      }
      // A window that has run out starts again.
      const short = new RateLimiter(1, 50, store);
      await short.hit('s');
      await Bun.sleep(80);
      await short.hit('s');
    });
  },
  ['sqlite', 'pg'],
);

describeEngines(
  'PostgreSQL metadata store across instances',
  () => {
    let url: string;
    let drop: () => Promise<void>;
    const opened: MetaStore[] = [];
    beforeAll(async () => {
      const db = await freshMetaDb('multi');
      url = db.url;
      drop = db.drop;
      const s = openPgMetaStore(url);
      await migrateMeta(s);
      await s.close();
    }, 30_000);
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close().catch(() => {})));
      await drop();
    }, 30_000);
    const open = (u = url) => {
      const s = openPgMetaStore(u, { connectTimeoutSec: 2 });
      opened.push(s);
      return s;
    };

    test('a change on one instance drops the cached rows of another within 1 s', async () => {
      const a = open();
      const b = open();
      const u = await usersRepo(a).create({ email: 'x@example.com', passwordHash: 'h', roles: 'user' });
      await usersRepo(b).byIdCached(u.id);
      expect(usersRepo(b).peekCached(u.id)?.token_version).toBe(0);
      await invalidation(b).ready;
      await usersRepo(a).setPassword(u.id, 'h2');
      expect(await within(1000, () => usersRepo(b).peekCached(u.id) === undefined)).toBe(true);
      expect((await usersRepo(b).byIdCached(u.id))!.token_version).toBe(1);
      // A rollback sends nothing: the message of a transaction leaves when it commits.
      const before = invalidation(b).received;
      await a.transaction(async (tx) => {
        await usersRepo(tx).setPassword(u.id, 'h3');
        throw new Error('undo');
      }).catch(() => {});
      await Bun.sleep(300);
      expect(invalidation(b).received).toBe(before);
      expect(usersRepo(b).peekCached(u.id)?.token_version).toBe(1);
    });

    test('two instances claiming the same cron tick: exactly one runs it; a held lease passes on when it lapses', async () => {
      const [a, b] = [open(), open()];
      const la = leases(a);
      const lb = leases(b);
      expect(la.holder).toBe(lb.holder); // one process here: name the holders as two instances would be
      const one = leases(a, 'host-1');
      const two = leases(b, 'host-2');
      for (let tick = 0; tick < 5; tick++) {
        const wins = await Promise.all([one.claim(`cron:job:${tick}`, 60_000), two.claim(`cron:job:${tick}`, 60_000)]);
        expect(wins.filter(Boolean).length).toBe(1);
      }
      const held = await Promise.all([one.acquire('deliveries', 150), two.acquire('deliveries', 150)]);
      expect(held.filter(Boolean).length).toBe(1);
      const loser = held[0] ? two : one;
      await Bun.sleep(200);
      expect(await loser.acquire('deliveries', 150)).toBe(true);
    });

    test('an instance started while the store is down waits for it, then starts', async () => {
      const proxy = startTcpProxy(PG.host, PG.port);
      proxy.down();
      const name = new URL(url).pathname.slice(1);
      const starting = boot(testConfig({ dataDir: mkdtempSync(join(tmpdir(), 'tablo-boot-')), metaDb: `postgres://${PG.user}@127.0.0.1:${proxy.port}/${name}` }));
      let started = false;
      void starting.then(() => (started = true), () => {});
      await Bun.sleep(1500);
      expect(started).toBe(false);
      proxy.up();
      const booted = await starting;
      expect(booted.meta.kind).toBe('pg');
      expect(await usersRepo(booted.meta).count()).toBeGreaterThanOrEqual(0);
      await booted.meta.close();
      proxy.down();
    }, 30_000);

    test('an unreachable store answers 503 and recovers by itself; the listener resyncs', async () => {
      const proxy = startTcpProxy(PG.host, PG.port);
      const name = new URL(url).pathname.slice(1);
      const viaProxy = `postgres://${PG.user}@127.0.0.1:${proxy.port}/${name}`;
      const s = open(viaProxy);
      expect(viaProxy).not.toBe(pgMetaUrl(name));
      const resets: string[] = [];
      invalidation(s).subscribe('user', (k) => resets.push(k));
      expect(await usersRepo(s).count()).toBeGreaterThanOrEqual(1);
      await invalidation(s).ready;
      proxy.down();
      const err = await usersRepo(s).count().catch((e) => e);
      expect(isAppError(err) && err.status).toBe(503);
      expect(err.message).toContain('metadata database is unreachable');
      proxy.up();
      expect(await within(5000, async () => (await usersRepo(s).count().catch(() => -1)) >= 1)).toBe(true);
      expect(await within(5000, () => resets.includes('*'))).toBe(true);
      await s.close();
      proxy.down();
    });

    test('a message the store did not take, or too big for a notification, makes the other instances resync once it answers', async () => {
      const proxy = startTcpProxy(PG.host, PG.port);
      const name = new URL(url).pathname.slice(1);
      const a = open(`postgres://${PG.user}@127.0.0.1:${proxy.port}/${name}`);
      const b = open();
      const heard: string[] = [];
      invalidation(b).subscribe('grid', (k) => heard.push(k));
      invalidation(b).subscribe('user', (k) => heard.push(`user ${k}`));
      await Promise.all([invalidation(a).ready, invalidation(b).ready]);
      await invalidation(a).announce('grid', 'first');
      expect(await within(5000, () => heard.includes('first'))).toBe(true);

      proxy.down();
      await invalidation(a).announce('grid', 'lost');
      proxy.up();
      // Every topic of B hears `*`, as after an outage of its own; the lost message itself is not sent again.
      expect(await within(10_000, () => heard.includes('*') && heard.includes('user *'))).toBe(true);
      expect(heard).not.toContain('lost');

      heard.length = 0;
      expect(invalidation(a).room('grid', 'x'.repeat(8000))).toBeLessThan(0);
      await invalidation(a).announce('grid', 'x'.repeat(8000));
      expect(await within(10_000, () => heard.includes('*'))).toBe(true);
      await a.close();
      proxy.down();
    }, 30_000);
  },
  ['pg'],
);
