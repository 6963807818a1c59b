/**
 * Project members (api-contract section 4, Team): `GET /admin?project_id=` lists members with
 * roles and pending invites; `POST /admin` invites by e-mail with roles (24 h link, answered when
 * no mail plugin is set); `PUT /admin/{userId}` changes roles; `DELETE /admin/{userId}` removes a
 * member; `POST /admin/resendInvite/{userId}` issues a new link; `DELETE /admin/invite/{userId}`
 * revokes a pending invite (the link stops working and the person leaves the project). Owners and creators manage the
 * team; only owners grant owner; owners cannot remove themselves.
 */
import { Elysia } from 'elysia';
import { forgetTokenActors } from '../../http/token-actor';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { nowIso, randomToken, sha256 } from '../../lib/ids';
import { LIMITS } from '../../config/limits';
import { emailField, parseBody } from '../../auth/passwords';
import { auditRepo } from '../../meta/audit-repo';
import { projectsRepo } from '../../meta/projects-repo';
import { usersRepo } from '../../meta/users-repo';
import { projectRolesOf, resolveActor } from '../../http/principal';
import { linkBase } from '../../http/link-base';
import { mailOrLog } from '../../plugins/deliver';
import { mailLanguageOf } from '../../lib/mail-language';
import { addedMail, inviteMail } from '../../plugins/mail-templates';

/** Said instead of a sign-up link that is not shown to the inviter (see linkShownTo). */
export const MSG_LINK_NOT_SHOWN =
  'The user was invited. They have more than this project waiting for them (another invite, or rights given by the Super Admin), so their sign-up link is not shown here: it was written to the server log for the administrator (a mail plugin sends it to them)';

/** Said when a change would leave a project without an owner who has joined. */
export const MSG_LAST_OWNER = 'A project needs at least one owner: make another member owner first';

const ROLES = ['owner', 'creator', 'editor', 'commenter', 'viewer'] as const;
const RolesField = z
  .union([z.string(), z.array(z.string())], { error: 'At least one role is required' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((r) => r.trim()).filter(Boolean))
  .pipe(z.array(z.enum(ROLES, { error: `Roles are ${ROLES.join(', ')}` })).min(1, 'At least one role is required'));

const ProjectIdField = z.string({ error: 'project_id is required' }).min(1, 'project_id is required');
const InviteBody = z.object({ email: emailField, roles: RolesField, project_id: ProjectIdField });
const RolesBody = z.object({ roles: RolesField, project_id: ProjectIdField });

interface Caller {
  actor: Actor;
  roles: string[];
  isOwner: boolean;
}

export function teamRoutes(ctx: AppContext) {
  const users = usersRepo(ctx.meta);
  const projects = projectsRepo(ctx.meta);
  const audit = auditRepo(ctx.meta);

  /** The caller, who must be an owner or creator of the project (or Super Admin / master key). */
  async function manager(request: Request, projectId: string | undefined): Promise<Caller> {
    const actor = await resolveActor(ctx, request);
    if (actor.kind === 'guest') throw unauthorized('Not signed in');
    if (!projectId) throw badRequest('project_id is required');
    if (!(await projects.get(projectId))) throw notFound(`Project '${projectId}' not found`);
    const roles = await projectRolesOf(ctx, actor, projectId);
    const superUser = actor.kind === 'master' || !!actor.superAdmin;
    if (!superUser && !roles.some((r) => r === 'owner' || r === 'creator')) throw forbidden('Not allowed');
    return { actor, roles, isOwner: superUser || roles.includes('owner') };
  }

  const grantable = (c: Caller, roles: string[]) => {
    if (roles.includes('owner') && !c.isOwner) throw forbidden('Only owners can grant the owner role');
  };

  /**
   * A new sign-up link for the user. Links sent earlier (an invite to another project) keep
   * working, unless `replace` (a resend) ends them.
   */
  async function issueInvite(request: Request, userId: string, replace: boolean): Promise<string> {
    const token = randomToken(24);
    const expires = new Date(Date.now() + LIMITS.inviteTtlMs).toISOString();
    await ctx.meta.transaction(async (tx) => {
      if (replace) await tx.run('DELETE FROM nc_invite_links WHERE user_id = ?', [userId]);
      await tx.run('INSERT INTO nc_invite_links (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)', [sha256(token), userId, expires, nowIso()]);
      await tx.run('UPDATE nc_users SET invite_token_hash = ?, invite_expires_at = ?, updated_at = ? WHERE id = ?', [sha256(token), expires, nowIso(), userId]);
    });
    return `${linkBase(ctx.config, request)}/#/user/authentication/signup/${token}`;
  }

  /** Mails the invite through the mail plugin, or logs the link when there is none (or it fails). */
  async function sendInvite(request: Request, email: string, url: string, projectId: string, roles: string, inviter: string | null) {
    const project = (await projects.get(projectId))?.title ?? projectId;
    return mailOrLog(ctx, email, inviteMail(ctx, { inviter, project, roles, url }, mailLanguageOf(request.headers.get('accept-language'))), `invite link for ${email}: ${url}`);
  }

  /** Mails an existing account that it was added to a project (logged when there is no mail plugin). */
  async function sendAdded(request: Request, email: string, projectId: string, roles: string, inviter: string | null) {
    const project = (await projects.get(projectId))?.title ?? projectId;
    const url = `${linkBase(ctx.config, request)}/#/nc/${projectId}`;
    return mailOrLog(ctx, email, addedMail(ctx, { inviter, project, roles, url }, mailLanguageOf(request.headers.get('accept-language'))), `${email} added to '${project}': ${url}`);
  }

  /**
   * Refuses a change that takes the owner role from `userId` when no other member who has joined
   * is an owner: the project would be left with nobody (but the Super Admin) to manage it.
   */
  async function keepAnOwner(projectId: string, userId: string, current: string[]) {
    if (!current.includes('owner')) return;
    const others = await ctx.meta.all<{ roles: string }>(
      `SELECT pu.roles FROM nc_project_users pu JOIN nc_users u ON u.id = pu.user_id
       WHERE pu.project_id = ? AND pu.user_id <> ? AND (u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM nc_user_identities i WHERE i.user_id = u.id))`,
      [projectId, userId],
    );
    if (!others.some((o) => o.roles.split(',').includes('owner'))) throw badRequest(MSG_LAST_OWNER);
  }

  /**
   * Whether the caller may be shown the sign-up link of a user who has not joined yet. The link sets
   * the account's password, which takes up everything the account holds: shown to the Super Admin,
   * and to a manager of this project only while the account holds nothing else (no other project,
   * no global right), or the owner of one project could take over someone invited as owner of another.
   */
  async function linkShownTo(caller: Caller, userId: string, projectId: string): Promise<boolean> {
    if (caller.actor.kind === 'master' || caller.actor.superAdmin) return true;
    const u = await users.byId(userId);
    if (!u || u.roles.split(',').includes('super') || u.may_create_projects) return false;
    return !(await ctx.meta.get('SELECT 1 AS x FROM nc_project_users WHERE user_id = ? AND project_id <> ?', [userId, projectId]));
  }

  /** Whether the user has a password or a linked sign-in provider (an invite was taken up). */
  const joined = async (userId: string) =>
    !!(await ctx.meta.get('SELECT 1 AS x FROM nc_users u WHERE u.id = ? AND (u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM nc_user_identities i WHERE i.user_id = u.id))', [userId]));

  return new Elysia({ name: 'team' })
    .get('/admin', async ({ request, query }) => {
      const projectId = typeof query.project_id === 'string' ? query.project_id : undefined;
      await manager(request, projectId);
      const rows = await ctx.meta.all<{ id: string; email: string; firstname: string | null; roles: string; joined: number; invite_expires_at: string | null; created_at: string }>(
        `SELECT u.id, u.email, u.firstname, pu.roles, u.invite_expires_at, pu.created_at,
           CASE WHEN u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM nc_user_identities i WHERE i.user_id = u.id) THEN 1 ELSE 0 END AS joined
         FROM nc_project_users pu JOIN nc_users u ON u.id = pu.user_id WHERE pu.project_id = ? ORDER BY pu.created_at`,
        [projectId],
      );
      return {
        list: rows.map((r) => ({
          id: r.id,
          email: r.email,
          firstname: r.firstname,
          roles: r.roles,
          status: r.joined ? 'active' : r.invite_expires_at && r.invite_expires_at > nowIso() ? 'invited' : 'invite expired',
          addedAt: r.created_at,
        })),
      };
    })
    .post('/admin', async ({ request, body }) => {
      const input = parseBody(InviteBody, body);
      const caller = await manager(request, input.project_id);
      grantable(caller, input.roles);
      let user = await users.byEmail(input.email);
      if (user && (await projects.memberRoles(input.project_id, user.id)).length) throw badRequest(`${input.email} is already a member of this project`);
      if (!user) user = await users.create({ email: input.email, passwordHash: null, roles: 'user' });
      // An account that joined (a password or a provider) is added, never sent a sign-up link: the
      // link sets the account's password, and without a mail plugin the inviter is shown it.
      const inviteUrl = (await joined(user.id)) ? null : await issueInvite(request, user.id, false);
      const shown = !!inviteUrl && (await linkShownTo(caller, user.id, input.project_id));
      await ctx.meta.run('INSERT INTO nc_project_users (project_id, user_id, roles, created_at) VALUES (?, ?, ?, ?)', [input.project_id, user.id, input.roles.join(','), nowIso()]);
      projects.forgetRoles();
      // A new account gets its sign-up link; an existing one is told where the project is.
      const sent = inviteUrl
        ? await sendInvite(request, input.email, inviteUrl, input.project_id, input.roles.join(','), caller.actor.email ?? null)
        : await sendAdded(request, input.email, input.project_id, input.roles.join(','), caller.actor.email ?? null);
      await audit.write({ op_type: 'TEAM', project_id: input.project_id, description: `${input.email} invited as ${input.roles.join(',')}`, user_email: caller.actor.email ?? null });
      if (sent.mailed) return inviteUrl ? { msg: `The invite was sent by e-mail to ${input.email}`, email: input.email, mailed: true } : { msg: `${input.email} was added to the project and told by e-mail`, email: input.email, mailed: true };
      if (inviteUrl && !shown) return { msg: MSG_LINK_NOT_SHOWN, email: input.email, ...(sent.error ? { mail_error: sent.error } : {}) };
      return inviteUrl ? { msg: 'The user was invited', invite_url: inviteUrl, email: input.email, ...(sent.error ? { mail_error: sent.error } : {}) } : { msg: 'The user was added to the project', email: input.email };
    })
    .put('/admin/:userId', async ({ request, params, body }) => {
      const input = parseBody(RolesBody, body);
      const caller = await manager(request, input.project_id);
      grantable(caller, input.roles);
      const current = await projects.memberRoles(input.project_id, params.userId);
      if (!current.length) throw notFound('This user is not a member of the project');
      if (current.includes('owner') && !caller.isOwner) throw forbidden('Only owners can change the role of an owner');
      if (!input.roles.includes('owner')) await keepAnOwner(input.project_id, params.userId, current);
      await ctx.meta.run('UPDATE nc_project_users SET roles = ? WHERE project_id = ? AND user_id = ?', [input.roles.join(','), input.project_id, params.userId]);
      forgetTokenActors(ctx.meta);
      projects.forgetRoles();
      const u = await users.byId(params.userId);
      await audit.write({ op_type: 'TEAM', project_id: input.project_id, description: `${u?.email} role changed from ${current.join(',')} to ${input.roles.join(',')}`, user_email: caller.actor.email ?? null });
      return { msg: 'The role was changed', roles: input.roles.join(',') };
    })
    .delete('/admin/:userId', async ({ request, params, query }) => {
      const projectId = typeof query.project_id === 'string' ? query.project_id : undefined;
      const caller = await manager(request, projectId);
      const current = await projects.memberRoles(projectId!, params.userId);
      if (!current.length) throw notFound('This user is not a member of the project');
      if (params.userId === caller.actor.userId && current.includes('owner')) throw badRequest('Owners cannot remove themselves from a project');
      if (current.includes('owner') && !caller.isOwner) throw forbidden('Only owners can remove an owner');
      await keepAnOwner(projectId!, params.userId, current);
      await ctx.meta.run('DELETE FROM nc_project_users WHERE project_id = ? AND user_id = ?', [projectId, params.userId]);
      forgetTokenActors(ctx.meta);
      projects.forgetRoles();
      const u = await users.byId(params.userId);
      await audit.write({ op_type: 'TEAM', project_id: projectId, description: `${u?.email} removed from the project`, user_email: caller.actor.email ?? null });
      return { msg: 'The user was removed from the project' };
    })
    .post('/admin/resendInvite/:userId', async ({ request, params, query, body }) => {
      const fromBody = (body as { project_id?: unknown } | undefined)?.project_id;
      const projectId = (typeof query.project_id === 'string' && query.project_id) || (typeof fromBody === 'string' ? fromBody : undefined);
      const caller = await manager(request, projectId);
      if (!(await projects.memberRoles(projectId!, params.userId)).length) throw notFound('This user is not a member of the project');
      const u = await users.byId(params.userId);
      if (!u) throw notFound('User not found');
      if (await joined(u.id)) throw badRequest(`${u.email} has already joined`);
      const inviteUrl = await issueInvite(request, u.id, true);
      const roles = (await projects.memberRoles(projectId!, u.id)).join(',');
      const sent = await sendInvite(request, u.email, inviteUrl, projectId!, roles, caller.actor.email ?? null);
      await audit.write({ op_type: 'TEAM', project_id: projectId, description: `invite to ${u.email} sent again`, user_email: caller.actor.email ?? null });
      if (sent.mailed) return { msg: `The invite was sent again by e-mail to ${u.email}`, mailed: true };
      if (!(await linkShownTo(caller, u.id, projectId!))) return { msg: MSG_LINK_NOT_SHOWN, ...(sent.error ? { mail_error: sent.error } : {}) };
      return { msg: 'The invite was sent again', invite_url: inviteUrl, ...(sent.error ? { mail_error: sent.error } : {}) };
    })
    .delete('/admin/invite/:userId', async ({ request, params, query }) => {
      const projectId = typeof query.project_id === 'string' ? query.project_id : undefined;
      const caller = await manager(request, projectId);
      const current = await projects.memberRoles(projectId!, params.userId);
      if (!current.length) throw notFound('This user is not a member of the project');
      const u = (await users.byId(params.userId))!;
      if (await joined(u.id)) throw badRequest(`${u.email} has already joined: remove the member instead`);
      if (current.includes('owner') && !caller.isOwner) throw forbidden('Only owners can revoke an invite as owner');
      await ctx.meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_project_users WHERE project_id = ? AND user_id = ?', [projectId, u.id]);
        const others = await tx.get('SELECT 1 AS x FROM nc_project_users WHERE user_id = ?', [u.id]);
        // Links are not per project: every open one ends. Invited to no other project: the account
        // that only held the invite goes too.
        await tx.run('DELETE FROM nc_invite_links WHERE user_id = ?', [u.id]);
        if (others) await tx.run('UPDATE nc_users SET invite_token_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE id = ?', [nowIso(), u.id]);
        else await tx.run('DELETE FROM nc_users WHERE id = ?', [u.id]);
      });
      users.forget(u.id);
      projects.forgetRoles();
      await audit.write({ op_type: 'TEAM', project_id: projectId, description: `invite to ${u.email} revoked`, user_email: caller.actor.email ?? null });
      return { msg: 'The invite was revoked' };
    });
}
