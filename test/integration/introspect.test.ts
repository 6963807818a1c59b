/**
 * Introspection over real SQLite, PostgreSQL and MariaDB: Chinook and the awkward schema give
 * the same model (tables, keys, relations, junctions, views, types, routines) on every engine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../../src/sql/open-database';
import type { Database } from '../../src/sql/dialect';
import type { SchemaModel } from '../../src/schema/model';
import { describeEngines, dropDatabase, loadAwkward, loadChinook } from '../helpers/engines';

describeEngines('introspection', (engine) => {
  let chinook: Database;
  let awkward: Database;
  let c: SchemaModel;
  let a: SchemaModel;

  beforeAll(async () => {
    chinook = await openDatabase(await loadChinook(engine, `tablo_t_introspect_chinook_${engine}`));
    awkward = await openDatabase(await loadAwkward(engine, `tablo_t_introspect_awkward_${engine}`));
    c = await chinook.introspect();
    a = await awkward.introspect();
  });
  afterAll(async () => {
    await chinook.driver.close();
    await awkward.driver.close();
    await dropDatabase(engine, `tablo_t_introspect_chinook_${engine}`);
    await dropDatabase(engine, `tablo_t_introspect_awkward_${engine}`);
  });

  const t = (m: SchemaModel, alias: string) => m.tables.find((x) => x._tn === alias)!;

  test('Chinook: tables, aliases, keys and display columns', () => {
    expect(c.tables.map((x) => x._tn).sort()).toEqual(
      ['Album', 'Artist', 'Customer', 'Employee', 'Genre', 'Invoice', 'InvoiceLine', 'MediaType', 'Playlist', 'PlaylistTrack', 'Track'],
    );
    const track = t(c, 'Track');
    expect(track.columns.map((x) => x._cn)).toEqual(['TrackId', 'Name', 'AlbumId', 'MediaTypeId', 'GenreId', 'Composer', 'Milliseconds', 'Bytes', 'UnitPrice']);
    expect(track.pks.length).toBe(1);
    expect(track.columns[0]).toMatchObject({ pk: true, uidt: engine === 'sqlite' ? 'ID' : track.columns[0]!.uidt, kind: 'integer' });
    expect(track.columns.find((x) => x._cn === 'Name')).toMatchObject({ uidt: 'SingleLineText', nullable: false, length: 200 });
    expect(track.columns.find((x) => x._cn === 'UnitPrice')).toMatchObject({ uidt: 'Decimal', kind: 'decimal' });
    expect(track.displayColumn?.toLowerCase()).toBe('name');
    expect(t(c, 'PlaylistTrack').pks.length).toBe(2);
  });

  test('Chinook: belongs-to, has-many and many-to-many through the junction', () => {
    const rel = (alias: string) => t(c, alias).relations.map((r) => `${r.type}:${r.alias}`).sort();
    expect(rel('Track')).toEqual(['bt:Album', 'bt:Genre', 'bt:MediaType', 'hm:InvoiceLine', 'hm:PlaylistTrack', 'mm:Playlist']);
    expect(rel('Playlist')).toEqual(['hm:PlaylistTrack', 'mm:Track']);
    expect(rel('Employee')).toEqual(['bt:Employee', 'hm:Customer', 'hm:Employee']);
    expect(t(c, 'PlaylistTrack').isJunction).toBe(true);
    const mm = t(c, 'Playlist').relations.find((r) => r.type === 'mm')!;
    expect(mm.junction!.tn.toLowerCase()).toBe(engine === 'pg' ? 'playlist_track' : 'playlisttrack');
  });

  test('awkward: composite key, no key, quoted names, reserved words, self reference, view', () => {
    expect(a.tables.map((x) => x.tn).sort()).toEqual(['Customer Group', 'employee', 'event_log', 'grade', 'order', 'order_tag', 'paid_orders', 'tag']);
    expect(t(a, 'CustomerGroup').columns.map((x) => x._cn)).toEqual(['GroupId', 'GroupName']);
    expect(t(a, 'Grade').pks).toEqual(['student', 'course']);
    expect(t(a, 'EventLog').pks).toEqual([]);
    expect(t(a, 'PaidOrders').type).toBe('view');
    expect(t(a, 'Employee').relations.map((r) => `${r.type}:${r.alias}`).sort()).toEqual(['bt:Employee', 'hm:Employee']);
    expect(t(a, 'Order').relations.map((r) => `${r.type}:${r.alias}`).sort()).toEqual(['bt:CustomerGroup', 'hm:OrderTag', 'mm:Tag']);
    expect(t(a, 'OrderTag').isJunction).toBe(true);
  });

  test('awkward: column types, defaults, auto-increment, enum values and uniques', () => {
    const order = t(a, 'Order');
    const col = (cn: string) => order.columns.find((x) => x.cn === cn)!;
    expect(col('id')).toMatchObject({ pk: true, ai: true, uidt: 'ID' });
    expect(col('title')).toMatchObject({ uidt: 'SingleLineText', nullable: false });
    expect(col('notes')).toMatchObject({ uidt: 'LongText', nullable: true });
    expect(col('qty')).toMatchObject({ kind: 'integer' });
    expect(col('qty').default).toContain('1');
    expect(col('big')).toMatchObject({ kind: 'bigint' });
    expect(col('price')).toMatchObject({ uidt: 'Decimal', kind: 'decimal' });
    expect(col('ratio')).toMatchObject({ kind: 'float' });
    expect(col('paid')).toMatchObject({ uidt: 'Checkbox', kind: 'boolean', nullable: false });
    expect(col('due')).toMatchObject({ uidt: 'Date', kind: 'date' });
    expect(col('created_at')).toMatchObject({ uidt: 'DateTime', kind: 'datetime' });
    expect(col('at_time')).toMatchObject({ uidt: 'Time', kind: 'time' });
    expect(col('meta')).toMatchObject({ uidt: 'JSON', kind: 'json' });
    expect(col('blob')).toMatchObject({ uidt: 'Binary', kind: 'binary' });
    expect(col('code').unique).toBe(true);
    if (engine !== 'sqlite') expect(col('feeling')).toMatchObject({ uidt: 'SingleSelect', enumValues: ['happy', 'sad', 'ok'] });
  });

  test('functions, procedures and sequences where the engine has them; internal tables hidden', () => {
    expect(a.tables.some((x) => x.tn.startsWith('nc_'))).toBe(false);
    if (engine === 'sqlite') {
      expect([a.functions, a.procedures, a.sequences]).toEqual([[], [], []]);
      return;
    }
    expect(a.functions.map((f) => f.name)).toEqual(['add_one']);
    expect(a.functions[0]!.definition).toContain('x + 1');
    expect(a.procedures.map((f) => f.name)).toEqual(['touch_nothing']);
    if (engine === 'pg') {
      expect(a.sequences.map((s) => s.name)).toContain('invoice_no');
      expect(a.sequences.find((s) => s.name === 'invoice_no')!.definition).toContain('START WITH 1000');
    } else {
      expect(a.sequences).toEqual([]);
    }
  });

  if (engine === 'pg') test('PostgreSQL: another schema than public is selectable per connection', async () => {
    await awkward.driver.execute({ sql: 'CREATE SCHEMA sales', params: [] });
    await awkward.driver.execute({ sql: 'CREATE TABLE sales.deal (id integer PRIMARY KEY, amount numeric)', params: [] });
    const other = await openDatabase({ ...awkward.config, connection: { ...awkward.config.connection, schema: 'sales' } });
    try {
      const m = await other.introspect();
      expect(m.tables.map((x) => x.tn)).toEqual(['deal']);
      expect(m.tables[0]!.schema).toBe('sales');
      const rows = await other.driver.query(other.dialect.compile({ kind: 'select', from: { name: 'deal', schema: 'sales' }, columns: [] }));
      expect(rows).toEqual([]);
    } finally {
      await other.driver.close();
    }
  });

  test('inflection none keeps SQL names', async () => {
    const m = await awkward.introspect({ inflectionTable: 'none', inflectionColumn: 'none' });
    expect(m.tables.find((x) => x.tn === 'Customer Group')!._tn).toBe('Customer Group');
    expect(m.tables.find((x) => x.tn === 'order')!.columns.map((x) => x._cn)).toContain('created_at');
  });
});
