/**
 * Introspection naming rules on real SQLite, PostgreSQL and MariaDB: two foreign keys to one
 * parent get deterministic aliases, display columns fall back to the key, unicode names and
 * data survive, internal tables stay hidden; and the Chinook loader reuses a complete copy.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../../src/sql/open-database';
import { ddlFor } from '../../src/sql/ddl';
import type { Database } from '../../src/sql/dialect';
import type { SchemaModel } from '../../src/schema/model';
import { describeEngines, dropDatabase, freshDatabase } from '../helpers/engines';
import { chinookTable, holdsFullChinook, loadChinook } from '../helpers/chinook';

describeEngines('introspection names', (engine) => {
  const name = `tablo_t_introspectaliases_${engine}`;
  const chinookName = `tablo_t_introspectaliases_chinook_${engine}`;
  const ddl = ddlFor(engine);
  let db: Database;
  let m: SchemaModel;
  const ph = (n: number) => (engine === 'pg' ? `$${n}` : '?');
  const rels = (tn: string) => m.tables.find((t) => t.tn === tn)!.relations.map((r) => `${r.type}:${r.alias}:${r.childColumns.join(',')}`);

  beforeAll(async () => {
    db = await openDatabase(await freshDatabase(engine, name));
    const statements = [
      ...ddl.createTable({ name: 'person' }, [{ name: 'id', uidt: 'Number', pk: true }, { name: 'age', uidt: 'Number' }]),
      // Declared receiver first: the aliases must not follow declaration or catalogue order.
      ...ddl.createTable(
        { name: 'message' },
        [{ name: 'id', uidt: 'Number', pk: true }, { name: 'receiver_id', uidt: 'Number' }, { name: 'sender_id', uidt: 'Number' }, { name: 'body', uidt: 'SingleLineText' }],
        [
          { name: 'fk_msg_receiver', columns: ['receiver_id'], refTable: 'person', refColumns: ['id'] },
          { name: 'fk_msg_sender', columns: ['sender_id'], refTable: 'person', refColumns: ['id'] },
        ],
      ),
      // A self many-to-many: both foreign keys of the junction point at person.
      ...ddl.createTable(
        { name: 'friendship' },
        [{ name: 'person_a', uidt: 'Number', pk: true }, { name: 'person_b', uidt: 'Number', pk: true }],
        [
          { name: 'fk_friend_a', columns: ['person_a'], refTable: 'person', refColumns: ['id'] },
          { name: 'fk_friend_b', columns: ['person_b'], refTable: 'person', refColumns: ['id'] },
        ],
      ),
      ...ddl.createTable({ name: 'café menu' }, [{ name: 'id', uidt: 'Number', pk: true }, { name: 'plat_du_jour', uidt: 'SingleLineText' }]),
      ...ddl.createTable({ name: 'nc_settings' }, [{ name: 'id', uidt: 'Number', pk: true }]),
      ...ddl.createTable({ name: 'xc_cache' }, [{ name: 'id', uidt: 'Number', pk: true }]),
      ...ddl.createTable({ name: '_evolutions' }, [{ name: 'id', uidt: 'Number', pk: true }]),
    ];
    for (const sql of statements) await db.driver.execute({ sql, params: [] });
    const q = db.dialect.quoteId;
    await db.driver.execute({ sql: `INSERT INTO ${q('café menu')} (${q('id')}, ${q('plat_du_jour')}) VALUES (${ph(1)}, ${ph(2)})`, params: [1, 'crème brûlée 🍮'] });
    m = await db.introspect();
  });
  afterAll(async () => {
    await db.driver.close();
    await dropDatabase(engine, name);
    await dropDatabase(engine, chinookName);
  });

  test('two foreign keys to one parent: plain alias first by column name, then a numbered one', () => {
    expect(rels('message')).toEqual(['bt:Person:receiver_id', 'bt:Person2:sender_id']);
    expect(rels('person').filter((r) => r.startsWith('hm:Message'))).toEqual(['hm:Message:receiver_id', 'hm:Message2:sender_id']);
  });

  test('a self many-to-many: the junction is marked and each direction gets its own alias', () => {
    expect(m.tables.find((t) => t.tn === 'friendship')!.isJunction).toBe(true);
    const mm = m.tables.find((t) => t.tn === 'person')!.relations.filter((r) => r.type === 'mm');
    expect(mm.map((r) => [r.alias, r.junction!.columns, r.junction!.targetColumns])).toEqual([
      ['Person', ['person_a'], ['person_b']],
      ['Person2', ['person_b'], ['person_a']],
    ]);
  });

  test('display column: first text column outside the key, else the key', () => {
    expect(m.tables.find((t) => t.tn === 'message')!.displayColumn).toBe('body');
    expect(m.tables.find((t) => t.tn === 'person')!.displayColumn).toBe('id');
  });

  test('unicode names and data', async () => {
    const cafe = m.tables.find((t) => t.tn === 'café menu')!;
    expect(cafe._tn).toBe('CaféMenu');
    expect(cafe.columns.map((c) => c._cn)).toEqual(['Id', 'PlatDuJour']);
    const rows = await db.driver.query<{ plat_du_jour: string }>(db.dialect.compile({ kind: 'select', from: { name: 'café menu' }, columns: [{ expr: { kind: 'col', name: 'plat_du_jour' } }] }));
    expect(rows).toEqual([{ plat_du_jour: 'crème brûlée 🍮' }]);
  });

  test('internal tables (nc_, xc_, _evolutions) never appear', () => {
    expect(m.tables.map((t) => t.tn).sort()).toEqual(['café menu', 'friendship', 'message', 'person']);
  });

  test('the Chinook loader reuses a complete copy and reloads one that lost rows', async () => {
    await loadChinook(engine, chinookName, { fresh: true });
    expect(await holdsFullChinook(engine, chinookName)).toBe(true);
    const started = performance.now();
    const cfg = await loadChinook(engine, chinookName);
    expect(performance.now() - started).toBeLessThan(1000);
    const chinook = await openDatabase(cfg);
    try {
      const q = chinook.dialect.quoteId;
      const track = chinookTable(engine, 'Track');
      await chinook.driver.execute({ sql: `DELETE FROM ${q(chinookTable(engine, 'PlaylistTrack'))}`, params: [] });
      expect(await holdsFullChinook(engine, chinookName)).toBe(false);
      const count = async () => Number((await chinook.driver.query<{ n: unknown }>({ sql: `SELECT COUNT(*) AS n FROM ${q(track)}`, params: [] }))[0]!.n);
      expect(await count()).toBe(3503);
    } finally {
      await chinook.driver.close();
    }
    await loadChinook(engine, chinookName);
    expect(await holdsFullChinook(engine, chinookName)).toBe(true);
  });
});
