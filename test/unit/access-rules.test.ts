/** Data rights: role defaults, merging several roles, preview, placeholders and row conditions as bound SQL. */
import { describe, expect, test } from 'bun:test';
import { bindUserPlaceholders, defaultRule, effectiveRoles, grantCondition, grantOf, isUnrestricted } from '../../src/data/access';
import { dialectFor } from '../../src/sql/engines';
import type { AclRules } from '../../src/meta/acl-repo';
import type { Actor } from '../../src/lib/actor';
import type { ColumnModel, TableModel } from '../../src/schema/model';

const column = (cn: string, kind: ColumnModel['kind']): ColumnModel => ({ cn, _cn: cn, dt: kind, uidt: 'SingleLineText', kind, pk: cn === 'id', ai: false, nullable: true, default: null });
const T: TableModel = { tn: 'task', _tn: 'Task', type: 'table', pks: ['id'], displayColumn: 'title', relations: [], columns: [column('id', 'integer'), column('title', 'string'), column('owner', 'string')] };
const user = (roles: string[], extra: Partial<Actor> = {}): Actor => ({ kind: 'user', userId: 'us_1', email: 'ann@example.com', roles: ['user', ...roles], ...extra });
const where = (a: Actor, acl?: AclRules) => {
  const c = grantCondition(grantOf(a, acl, T, 'read')!, T);
  return c && dialectFor('pg').compile({ kind: 'select', from: { name: 'task' }, columns: [], where: c });
};

describe('defaults and merging', () => {
  test('the spec role lists when nothing is stored', () => {
    expect(defaultRule('editor')).toMatchObject({ read: true, create: true, update: true, delete: true });
    expect(defaultRule('viewer')).toMatchObject({ read: true, create: false, update: false, delete: false });
    expect(defaultRule('guest').read).toBe(false);
    expect(grantOf(user(['commenter']), undefined, T, 'update')).toBeNull();
    expect(grantOf(user([]), undefined, T, 'read')).toBeNull();
  });

  test('owners, creators, the Super Admin and the master key are never restricted, unless previewing', () => {
    expect(isUnrestricted(user(['owner']))).toBe(true);
    expect(isUnrestricted({ kind: 'master', roles: [] })).toBe(true);
    expect(isUnrestricted(user(['super'], { superAdmin: true }))).toBe(true);
    expect(isUnrestricted(user(['owner'], { previewAs: 'viewer' }))).toBe(false);
    expect(effectiveRoles(user(['owner'], { previewAs: 'viewer' }))).toEqual(['viewer']);
    // A preview from a role that cannot preview changes nothing.
    expect(effectiveRoles(user(['editor'], { previewAs: 'viewer' }))).toEqual(['user', 'editor']);
  });

  test('several roles: columns are united, a role without a condition admits every row', () => {
    const acl: AclRules = new Map([['task', { viewer: { read: ['title'], create: false, update: false, delete: false, where: '(owner,eq,$user.email)' }, commenter: { read: ['id'], create: false, update: false, delete: false } }]]);
    expect(grantOf(user(['viewer', 'commenter']), acl, T, 'read')).toEqual({ columns: new Set(['title', 'id']), where: null });
    expect(grantOf(user(['viewer']), acl, T, 'read')).toEqual({ columns: new Set(['title']), where: ['(owner,eq,ann@example.com)'] });
  });
});

describe('row conditions', () => {
  const acl: AclRules = new Map([['task', { viewer: { read: true, create: false, update: false, delete: false, where: '(owner,eq,$user.email)~or(owner,eq,$user.id)' } }]]);
  test('placeholders become bound parameters', () => {
    expect(where(user(['viewer']), acl)).toEqual({ sql: 'SELECT * FROM "task" WHERE ("owner" = $1 OR "owner" = $2)', params: ['ann@example.com', 'us_1'] });
  });
  test('a caller without the value matches no row; values that would break the term are refused', () => {
    expect(where({ kind: 'token', roles: ['viewer'] }, acl)!.sql).toBe('SELECT * FROM "task" WHERE 1 = 0');
    expect(bindUserPlaceholders('(owner,eq,$user.email)', { email: 'a)~or(id,gt,0' })).toBeNull();
    expect(bindUserPlaceholders('(owner,eq,$user.idx)', { userId: 'u' })).toBe('(owner,eq,$user.idx)');
  });
});
