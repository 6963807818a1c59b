import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteMetaStore } from '../../src/meta/sqlite-store';
import { migrateMeta, MetaSchemaTooNewError } from '../../src/meta/migrate';
import { META_MIGRATIONS } from '../../migrations/index';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'tablo-meta-')), 'meta.db');

describe('metadata store', () => {
  test('uses WAL, foreign keys and a busy timeout', async () => {
    const store = openSqliteMetaStore(tempFile());
    expect((await store.get<{ journal_mode: string }>('PRAGMA journal_mode'))!.journal_mode).toBe('wal');
    expect((await store.get<{ foreign_keys: number }>('PRAGMA foreign_keys'))!.foreign_keys).toBe(1);
    expect((await store.get<{ timeout: number }>('PRAGMA busy_timeout'))!.timeout).toBe(5000);
    await store.close();
  });

  test('rows inserted later are in the next read, in order, the rows of many calls in one commit', async () => {
    const path = tempFile();
    const store = openSqliteMetaStore(path);
    await store.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER)');
    // 300 rows in 150 calls: written as chunks of the store's sizes, in the order given.
    for (let i = 0; i < 300; i += 2) store.insertLater!('t', ['a', 'b'], [[`r${i}`, i], [`r${i + 1}`, i + 1]]);
    const rows = await store.all<{ a: string; b: number }>('SELECT a, b FROM t ORDER BY id');
    expect(rows.length).toBe(300);
    expect(rows.every((r, i) => r.a === `r${i}` && r.b === i)).toBe(true);
    // Nothing waits for a read: the timer writes them too.
    store.insertLater!('t', ['a', 'b'], [['late', 1]]);
    await Bun.sleep(120);
    const other = openSqliteMetaStore(path);
    expect(await other.get<{ n: number }>("SELECT COUNT(*) AS n FROM t WHERE a = 'late'")).toEqual({ n: 1 });
    await other.close();
    // Closing writes what is still waiting.
    store.insertLater!('t', ['a', 'b'], [['at close', 2]]);
    await store.close();
    const again = openSqliteMetaStore(path);
    expect(await again.get<{ n: number }>("SELECT COUNT(*) AS n FROM t WHERE a = 'at close'")).toEqual({ n: 1 });
    await again.close();
  });

  test('migrations apply once each and are recorded', async () => {
    const path = tempFile();
    const store = openSqliteMetaStore(path);
    expect(await migrateMeta(store)).toEqual(META_MIGRATIONS.map((m) => m.version));
    expect(await migrateMeta(store)).toEqual([]);
    const rows = await store.all<{ version: number }>('SELECT version FROM nc_meta_migrations');
    expect(rows.length).toBe(META_MIGRATIONS.length);
    await store.close();
    const again = openSqliteMetaStore(path);
    expect(await migrateMeta(again)).toEqual([]);
    await again.close();
  });

  test('a failing migration rolls back and is not recorded', async () => {
    const store = openSqliteMetaStore(tempFile());
    const bad = [{ version: 1, name: 'bad', sql: 'CREATE TABLE a (x INT); CREATE TABLE a (y INT);' }];
    await expect(migrateMeta(store, bad)).rejects.toThrow();
    expect(await store.get("SELECT name FROM sqlite_master WHERE name = 'a'")).toBeUndefined();
    expect(await store.all('SELECT * FROM nc_meta_migrations')).toEqual([]);
    await store.close();
  });

  test('an older binary refuses a newer metadata schema', async () => {
    const store = openSqliteMetaStore(tempFile());
    await migrateMeta(store);
    await store.run("INSERT INTO nc_meta_migrations (version, name, applied_at) VALUES (999, 'future', 'x')");
    const err = await migrateMeta(store).catch((e) => e);
    expect(err).toBeInstanceOf(MetaSchemaTooNewError);
    expect(err.message).toContain('newer Tablo');
    expect(err.message).toContain('999');
    await store.close();
  });

  test('transactions are atomic and serialise other callers', async () => {
    const store = openSqliteMetaStore(tempFile());
    await store.exec('CREATE TABLE t (x INTEGER)');
    await expect(
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO t VALUES (1)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.all('SELECT * FROM t')).toEqual([]);
    const order: string[] = [];
    const tx = store.transaction(async (t) => {
      await t.run('INSERT INTO t VALUES (2)');
      await Bun.sleep(20);
      order.push('tx');
    });
    const outside = store.all('SELECT * FROM t').then((r) => order.push(`read ${r.length}`));
    await Promise.all([tx, outside]);
    expect(order).toEqual(['tx', 'read 1']);
    await store.close();
  });
});
