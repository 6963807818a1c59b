/**
 * The one place data rights are decided. Owners and creators do everything, the Super Admin and
 * the master key too (unless previewing a role). For the other roles a stored rule per table
 * (Roles Management) says what each may read, create, update and delete, for all columns or only
 * some, optionally limited to rows matching a condition; without a stored rule the role's
 * default applies: editors read and write, commenters and viewers read, guests nothing.
 *
 * Row conditions use the where language with two placeholders, `$user.id` and `$user.email`,
 * replaced by the caller's values and bound as parameters like every filter value. A condition
 * whose placeholder the caller cannot fill (an API token has no user) matches no row.
 */
import type { Cond } from '../sql/ast';
import type { Actor } from '../lib/actor';
import type { ColumnModel, RelationModel, TableModel } from '../schema/model';
import type { AclRules, ColumnGrant, TableRule } from '../meta/acl-repo';
import { badRequest, forbidden, unauthorized } from '../lib/errors';
import { parseWhere } from './where-parser';
import { displayColumnOf } from '../sql/schema-model';

export type DataOp = 'read' | 'create' | 'update' | 'delete';

/** Roles that may do everything in a project. */
export const ADMIN_ROLES = ['owner', 'creator'];
/** Roles that may add comments to rows (owners and creators too). */
export const COMMENTING_ROLES = [...ADMIN_ROLES, 'editor', 'commenter'];

/** Whether the caller may comment on rows they read: commenters and above, the Super Admin, the master key. */
export function mayComment(a: Actor): boolean {
  return a.kind === 'master' || (!!a.superAdmin && !a.previewAs) || effectiveRoles(a).some((r) => COMMENTING_ROLES.includes(r));
}

/** Roles whose data rights are set per table (owners and creators always have all). */
export const RULE_ROLES = ['editor', 'commenter', 'viewer', 'guest'];

const ALL: TableRule = { read: true, create: true, update: true, delete: true };
const READ_ONLY: TableRule = { read: true, create: false, update: false, delete: false };
const NOTHING: TableRule = { read: false, create: false, update: false, delete: false };

/** A role's rights on a table when no rule is stored (the spec's role lists). */
export function defaultRule(role: string): TableRule {
  if (ADMIN_ROLES.includes(role) || role === 'editor') return ALL;
  if (role === 'commenter' || role === 'viewer') return READ_ONLY;
  return NOTHING;
}

/** The roles that count for this call: a preview (by an owner, creator or Super Admin) replaces the real ones. */
export const effectiveRoles = (a: Actor) => rolesInProject(a, a.roles);

/**
 * The caller's roles for a check in one project: `xc-preview` replaces `projectRoles` only for those who
 * may preview (owners, creators, the Super Admin, the master key). Anyone else's header is ignored: a
 * viewer previewing 'editor', or a stranger previewing 'viewer', must not gain that role.
 */
export function rolesInProject(a: Actor, projectRoles: string[]): string[] {
  const mayPreview = a.kind === 'master' || !!a.superAdmin || projectRoles.some((r) => ADMIN_ROLES.includes(r));
  return a.previewAs && mayPreview ? [a.previewAs] : projectRoles;
}

/** Owners and creators of the project (and the Super Admin, the master key), unless previewing a lower role. */
export function isProjectAdmin(a: Actor, projectRoles: string[]): boolean {
  if (a.kind === 'master' || ((a.superAdmin || a.roles.includes('super')) && !a.previewAs)) return true;
  return rolesInProject(a, projectRoles).some((r) => ADMIN_ROLES.includes(r));
}

/** Owners of the project (and the Super Admin, the master key), unless previewing a lower role. */
export function isProjectOwner(a: Actor, projectRoles: string[]): boolean {
  if (a.kind === 'master' || ((a.superAdmin || a.roles.includes('super')) && !a.previewAs)) return true;
  return rolesInProject(a, projectRoles).includes('owner');
}

/** Master key, Super Admin and owners/creators are never restricted, unless they preview a role. */
export function isUnrestricted(a: Actor): boolean {
  if (a.kind === 'master') return true;
  if (a.superAdmin && !a.previewAs) return true;
  return effectiveRoles(a).some((r) => ADMIN_ROLES.includes(r));
}

/** What an allowed operation may touch: columns (null = all) and the row condition (text; null = all rows). */
export interface Grant {
  columns: Set<string> | null;
  /** Row conditions of the allowing roles, any of which admits a row; empty list = every row. */
  where: string[] | null;
}

const UNLIMITED: Grant = { columns: null, where: null };

/** Fills `$user.id` / `$user.email`; null when a value is missing or would break the term. */
export function bindUserPlaceholders(where: string, actor: Pick<Actor, 'userId' | 'email'>): string | null {
  let missing = false;
  const out = where.replace(/\$user\.(id|email)\b/g, (_, k: string) => {
    const v = k === 'id' ? actor.userId : actor.email;
    if (!v || v.includes(')~') || v.includes('~')) missing = true;
    return v ?? '';
  });
  return missing ? null : out;
}

const grantCols = (g: ColumnGrant | boolean): Set<string> | null | false => (g === true ? null : g === false || (Array.isArray(g) && g.length === 0) ? false : new Set(g));

/** The grant of the caller for one operation on one table, or null when refused. */
export function grantOf(actor: Actor, acl: AclRules | undefined, t: TableModel, op: DataOp): Grant | null {
  if (isUnrestricted(actor)) return UNLIMITED;
  const stored = acl?.get(t.tn) ?? {};
  let columns: Set<string> | null | false = false;
  let where: string[] | null = [];
  for (const role of effectiveRoles(actor)) {
    const rule = stored[role] ?? defaultRule(role);
    const cols = grantCols(rule[op]);
    if (cols === false) continue;
    columns = columns === null || cols === null ? null : new Set([...(columns || []), ...cols]);
    const w = rule.where?.trim();
    if (!w) where = null;
    else if (where) {
      const bound = bindUserPlaceholders(w, actor);
      if (bound !== null) where.push(bound);
    }
  }
  if (columns === false) return null;
  // Allowed only through conditions that match nothing: every row is outside.
  return { columns, where: where && where.length === 0 ? ['\u0000none'] : where };
}

/** The caller's grant, or 403 (401 for a guest; 400 for a view that cannot be read). */
export function assertCan(actor: Actor, t: TableModel, op: DataOp, acl?: AclRules): Grant {
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  if (t.broken) throw badRequest(`View '${t._tn}' cannot be read: ${t.broken}`);
  const g = grantOf(actor, acl, t, op);
  if (!g) throw forbidden(op === 'read' ? `Not allowed to read '${t._tn}'` : `Not allowed to ${op} rows of '${t._tn}'`);
  return g;
}

/** Whether a grant covers a column. */
export const grantsColumn = (g: Grant, c: ColumnModel) => g.columns === null || g.columns.has(c.cn);

/** The row condition of a grant as a query condition (columns qualified by `alias` when given). */
export function grantCondition(g: Grant, t: TableModel, alias?: string): Cond | undefined {
  if (!g.where) return undefined;
  const items: Cond[] = [];
  for (const w of g.where) {
    if (w === '\u0000none') continue;
    try {
      const c = parseWhere(w, t, alias);
      if (c) items.push(c);
    } catch {
      throw forbidden(`The row condition of '${t._tn}' for your role is not valid any more`);
    }
  }
  if (items.length === 0) return { kind: 'const', value: false };
  return items.length === 1 ? items[0] : { kind: 'or', items };
}

/** The columns the caller may set when adding a row (none when they may not add rows). */
export function creatableColumns(actor: Actor, acl: AclRules | undefined, t: TableModel): ColumnModel[] {
  const g = grantOf(actor, acl, t, 'create');
  return g ? t.columns.filter((c) => grantsColumn(g, c)) : [];
}

/** Refuses (403 naming it) the first column of a write the grant does not cover. */
export function assertColumns(g: Grant, t: TableModel, op: 'create' | 'update', cols: ColumnModel[]): void {
  const bad = cols.find((c) => !grantsColumn(g, c));
  if (bad) throw forbidden(`Not allowed to ${op} column '${bad._cn}' of '${t._tn}'`);
}

/** This table's columns a relation links by: a belongs-to's foreign key, the key a has-many or many-to-many refers to. */
export const linkColumnsOf = (r: RelationModel): string[] => (r.type === 'hm' ? r.parentColumns : r.type === 'bt' ? r.childColumns : (r.junction?.refColumns ?? []));

/**
 * The table model cut to the columns a grant covers (for parsing fields, filters and sorts), and to
 * the relations linked by covered columns only: a relation by a hidden column would show its value.
 * A hidden display column gives way to the one the covered columns would have.
 */
export function restrictTable(t: TableModel, g: Grant): TableModel {
  if (g.columns === null) return t;
  const columns = t.columns.filter((c) => grantsColumn(g, c));
  const displayColumn = t.displayColumn && g.columns.has(t.displayColumn) ? t.displayColumn : displayColumnOf(columns);
  return { ...t, columns, displayColumn, relations: t.relations.filter((r) => linkColumnsOf(r).every((cn) => g.columns!.has(cn))) };
}
