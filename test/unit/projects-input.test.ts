import { describe, expect, test } from 'bun:test';
import { seal, open } from '../../src/lib/secret-box';
import { confineSqlitePath, parseDbInput } from '../../src/schema/connection-input';
import { diffSchemas } from '../../src/schema/meta-sync';
import { applyUserMeta } from '../../src/schema/user-meta';
import { projectSlug } from '../../src/lib/ids';
import type { ColumnModel, SchemaModel, TableModel } from '../../src/schema/model';

const key = Buffer.alloc(32, 7).toString('base64');

describe('connection configs at rest', () => {
  test('sealed with AES-GCM, unreadable without the key, tamper-evident', () => {
    const sealed = seal(key, JSON.stringify({ password: 'hunter22' }));
    expect(sealed).not.toContain('hunter22');
    expect(JSON.parse(open(key, sealed)).password).toBe('hunter22');
    expect(() => open(Buffer.alloc(32, 8).toString('base64'), sealed)).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => open(key, parts.join(':'))).toThrow();
  });
});

describe('external database form', () => {
  const dataDir = '/srv/tablo-data';
  test('SQLite paths stay inside the data directory unless allowed', () => {
    expect(confineSqlitePath('files/a.db', dataDir, [])).toBe('/srv/tablo-data/files/a.db');
    expect(() => confineSqlitePath('../etc/passwd', dataDir, [])).toThrow(/inside the data directory/);
    expect(() => confineSqlitePath('/etc/passwd', dataDir, [])).toThrow(/inside the data directory/);
    expect(confineSqlitePath('/mnt/dbs/x.db', dataDir, ['/mnt/dbs'])).toBe('/mnt/dbs/x.db');
    expect(() => confineSqlitePath('a<b>.db', dataDir, [])).toThrow('Invalid character in folder path.');
    expect(() => confineSqlitePath('a\u0000.db', dataDir, [])).toThrow('Invalid character in folder path.');
  });
  test('defaults per engine and SSL only when asked', () => {
    const pg = parseDbInput({ client: 'postgres', connection: { database: 'x', user: 'u' } }, dataDir, []);
    expect(pg).toMatchObject({ client: 'pg', connection: { host: '127.0.0.1', port: 5432, database: 'x' } });
    expect(pg.connection.ssl).toBeUndefined();
    const my = parseDbInput({ client: 'mysql2', connection: { database: 'x', port: '3307', ssl: { mode: 'Required' } } }, dataDir, []);
    expect(my).toMatchObject({ client: 'mysql', connection: { port: 3307, ssl: { mode: 'Required' } } });
    expect(() => parseDbInput({ client: 'oracle', connection: {} }, dataDir, [])).toThrow(/client/);
    expect(() => parseDbInput({ client: 'pg', connection: {} }, dataDir, [])).toThrow(/database name is required/);
    expect(() => parseDbInput({ client: 'pg', connection: { database: 'x', port: 99999 } }, dataDir, [])).toThrow(/port/);
  });
});

const column = (cn: string, extra: Partial<ColumnModel> = {}): ColumnModel => ({
  cn, _cn: cn, dt: 'integer', uidt: 'Number', kind: 'integer', pk: false, ai: false, nullable: true, default: null, ...extra,
});
const table = (tn: string, columns: ColumnModel[]): TableModel => ({
  tn, _tn: tn, type: 'table', columns, pks: [], displayColumn: null, relations: [],
});
const schema = (tables: TableModel[]): SchemaModel => ({ tables, functions: [], procedures: [], sequences: [] });

describe('schema sync', () => {
  test('reports added, removed and changed tables and columns', () => {
    const before = schema([table('a', [column('id'), column('x')]), table('gone', [column('id')])]);
    const after = schema([table('a', [column('id'), column('x', { dt: 'text' }), column('y')]), table('new', [column('id')])]);
    expect(diffSchemas(before, after)).toEqual({
      added: ['new'],
      removed: ['gone'],
      changed: [{ tn: 'a', addedColumns: ['y'], removedColumns: [], changedColumns: ['x'] }],
    });
    expect(diffSchemas(after, after)).toEqual({ added: [], removed: [], changed: [] });
  });
  test('user metadata is kept for objects that still exist', () => {
    const s = schema([table('film', [column('id'), column('title')])]);
    const m = new Map([
      ['film', { _tn: 'Movies', columns: { title: { _cn: 'Name', hidden: true } } }],
      ['dropped', { _tn: 'Old' }],
    ]);
    const out = applyUserMeta(s, m);
    expect(out.tables[0]!._tn).toBe('Movies');
    expect(out.tables[0]!.columns[1]).toMatchObject({ cn: 'title', _cn: 'Name', hidden: true });
    expect(out.tables.length).toBe(1);
  });
});

describe('project ids', () => {
  test('slug of the title', () => {
    expect(projectSlug('Sales Data!')).toBe('sales_data');
    expect(projectSlug('Café Müller')).toBe('cafe_muller');
    expect(projectSlug('!!!')).toBe('project');
  });
});
