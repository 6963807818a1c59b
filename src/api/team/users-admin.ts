/**
 * Super Admin user management: `GET /admin/users?search=` lists every user with global roles and
 * state, `GET /admin/users/{id}` one of them (404 for an unknown id); `PUT /admin/users/{id}`
 * { roles?, disabled?, mayCreateProjects? } edits them. A disabled user cannot sign in and their
 * sessions stop at once. `mayCreateProjects` lets a user create projects, test connections and add
 * databases (off for invited users until the Super Admin turns it on). The Super Admin cannot disable or demote themselves,
 * every user keeps a global role, and the last Super Admin who may sign in is never demoted or disabled (by the master key).
 */
import { forgetTokenActors } from '../../http/token-actor';
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { nowIso } from '../../lib/ids';
import { parseBody } from '../../auth/passwords';
import { auditRepo } from '../../meta/audit-repo';
import { usersRepo } from '../../meta/users-repo';
import { resolveActor } from '../../http/principal';
import { containsPattern } from '../../data/like-pattern';
import { sessionsEnded } from '../../auth/session-events';
import { refreshTokens } from '../../auth/refresh-tokens';
import { MASTER_KEY_AUTHOR } from '../../lib/audit-authors';

/** Most users the Users page lists at once. */
const USERS_PAGE_MAX = 500;

const EditBody = z.object({
  roles: z.array(z.enum(['super', 'user'], { error: 'Global roles are super and user' })).optional(),
  disabled: z.boolean().optional(),
  mayCreateProjects: z.boolean({ error: 'mayCreateProjects is true or false' }).optional(),
});

/** Users as the Users page shows them, those matching `where` (bound `params`), oldest first, at most `limit`. */
async function listAdminUsers(ctx: AppContext, where: string, params: unknown[], limit = USERS_PAGE_MAX) {
  const rows = await ctx.meta.all<{ id: string; email: string; firstname: string | null; lastname: string | null; roles: string; disabled: number; may_create_projects: number; joined: number; created_at: string }>(
    `SELECT id, email, firstname, lastname, roles, disabled, may_create_projects, created_at,
       CASE WHEN password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM nc_user_identities i WHERE i.user_id = nc_users.id) THEN 1 ELSE 0 END AS joined
     FROM nc_users
     WHERE ${where}
     ORDER BY created_at LIMIT ?`,
    [...params, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: [r.firstname, r.lastname].filter(Boolean).join(' ') || null,
    roles: r.roles.split(',').filter(Boolean),
    disabled: !!r.disabled,
    mayCreateProjects: !!r.may_create_projects || r.roles.split(',').includes('super'),
    joined: !!r.joined,
    createdAt: r.created_at,
  }));
}

/** How many Super Admins other than `userId` may sign in (not disabled). */
async function otherActiveSuperAdmins(ctx: AppContext, userId: string): Promise<number> {
  const row = await ctx.meta.get<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM nc_users WHERE id <> ? AND disabled = 0 AND (',' || roles || ',') LIKE ?`,
    [userId, '%,super,%'],
  );
  return Number(row?.n ?? 0);
}

export function usersAdminRoutes(ctx: AppContext) {
  const users = usersRepo(ctx.meta);
  const adminUsers = (where: string, params: unknown[]) => listAdminUsers(ctx, where, params);
  const superOnly = async (request: Request) => {
    const actor = await resolveActor(ctx, request);
    if (actor.kind === 'guest') throw unauthorized('Not signed in');
    if (!(actor.kind === 'master' || actor.superAdmin)) throw forbidden('Only the Super Admin manages users');
    return actor;
  };
  return new Elysia({ name: 'users-admin' })
    .get('/admin/users', async ({ request, query }) => {
      await superOnly(request);
      const search = typeof query.search === 'string' ? query.search.trim().toLowerCase() : '';
      if (/[^\x00-\x7f]/.test(search)) {
        // SQLite's lower() folds ASCII letters only, so 'Élodie' never matched 'élodie': a search
        // with other letters is matched here, on the whole list.
        const all = await listAdminUsers(ctx, '1 = 1', [], Number.MAX_SAFE_INTEGER);
        const hit = (v: string | null) => !!v && v.toLowerCase().includes(search);
        return { list: all.filter((u) => hit(u.email) || hit(u.name)).slice(0, USERS_PAGE_MAX) };
      }
      // The search's own % and _ are literal ("a_b" finds only a_b).
      const like = containsPattern(search);
      const list = await adminUsers(`(? = '' OR lower(email) LIKE ? ESCAPE '\\' OR lower(COALESCE(firstname, '') || ' ' || COALESCE(lastname, '')) LIKE ? ESCAPE '\\')`, [search, like, like]);
      return { list };
    })
    // One user, for a link to their edit panel (#/user/admin/user/{id}); 404 for an unknown id.
    .get('/admin/users/:id', async ({ request, params }) => {
      await superOnly(request);
      const [found] = await adminUsers('id = ?', [params.id]);
      if (!found) throw notFound('User not found');
      return found;
    })
    .put('/admin/users/:id', async ({ request, params, body }) => {
      const actor = await superOnly(request);
      const input = parseBody(EditBody, body);
      if (input.roles && input.roles.length === 0) throw badRequest('Every user keeps a global role: super (Super Admin) or user');
      const user = await users.byId(params.id);
      if (!user) throw notFound('User not found');
      const self = actor.userId === user.id;
      if (self && input.disabled) throw badRequest('You cannot disable your own account');
      if (self && input.roles && !input.roles.includes('super')) throw badRequest('You cannot remove your own Super Admin role');
      // The master key may edit anyone: the last Super Admin who can sign in keeps the role and the account.
      const activeSuper = user.roles.split(',').includes('super') && !user.disabled;
      const losesSuper = activeSuper && !!input.roles && !input.roles.includes('super');
      if ((losesSuper || (activeSuper && input.disabled)) && !(await otherActiveSuperAdmins(ctx, user.id))) {
        throw badRequest(losesSuper ? 'The last Super Admin cannot lose the Super Admin role' : 'The last Super Admin cannot be disabled');
      }
      const roles = input.roles ? [...new Set(input.roles)].join(',') : user.roles;
      const disabled = input.disabled === undefined ? user.disabled : input.disabled ? 1 : 0;
      const mayCreate = input.mayCreateProjects === undefined ? (user.may_create_projects ?? 0) : input.mayCreateProjects ? 1 : 0;
      const rightsChanged = input.roles !== undefined || input.disabled !== undefined;
      // A change of roles or state ends older sessions: the token version moves on. The project
      // right is read from the user row on every request, so it needs no new sign-in.
      await ctx.meta.run(`UPDATE nc_users SET roles = ?, disabled = ?, may_create_projects = ?, token_version = token_version + ?, updated_at = ? WHERE id = ?`, [
        roles,
        disabled,
        mayCreate,
        rightsChanged ? 1 : 0,
        nowIso(),
        user.id,
      ]);
      // Disabling ends the user's sign-ins for good: enabled again later, they sign in anew (the account
      // may have been disabled because a session was stolen).
      if (input.disabled && !user.disabled) await refreshTokens(ctx.meta).revokeAllForUser(user.id);
      forgetTokenActors(ctx.meta);
      users.forget(user.id);
      // Terminals of the user end now, not at the next sweep (up to 30 s of a shell after being disabled).
      if (rightsChanged) sessionsEnded(ctx, user.id, disabled ? 'the account was disabled' : 'the session ended');
      await auditRepo(ctx.meta).write({
        op_type: 'TEAM',
        description: `${user.email}: roles ${roles}${disabled ? ', disabled' : ''}${mayCreate ? ', may create projects' : ''}`,
        user_email: actor.email ?? MASTER_KEY_AUTHOR,
      });
      return { id: user.id, email: user.email, roles: roles.split(','), disabled: !!disabled, mayCreateProjects: !!mayCreate || roles.split(',').includes('super') };
    });
}
