/**
 * The one place data rights are checked. Roles: owner and creator do everything, editors write
 * data, commenters and viewers read, guests nothing; the Super Admin and the master key do
 * everything. The roles issue extends this with per-table, per-column and row rules.
 */
import type { Actor } from '../lib/actor';
import type { TableModel } from '../schema/model';
import { forbidden, unauthorized } from '../lib/errors';

export type DataOp = 'read' | 'create' | 'update' | 'delete';

const WRITERS = ['owner', 'creator', 'editor'];
const READERS = [...WRITERS, 'commenter', 'viewer'];

/** The roles that count for this call: a preview replaces the real ones. */
export const effectiveRoles = (a: Actor) => (a.previewAs && a.roles.some((r) => r === 'owner' || r === 'creator') ? [a.previewAs] : a.roles);

export function assertCan(actor: Actor, table: TableModel, op: DataOp): void {
  if (actor.kind === 'master' || (actor.superAdmin && !actor.previewAs)) return;
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  const roles = effectiveRoles(actor);
  const allowed = op === 'read' ? READERS : WRITERS;
  if (!roles.some((r) => allowed.includes(r))) {
    throw forbidden(op === 'read' ? `Not allowed to read '${table._tn}'` : `Not allowed to ${op} rows of '${table._tn}'`);
  }
}
