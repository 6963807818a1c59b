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
import { mailOrLog } from '../../plugins/deliver';
import { addedMail, inviteMail } from '../../plugins/mail-templates';

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
  const baseUrl = () => (ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`).replace(/\/$/, '');

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

  async function issueInvite(userId: string): Promise<string> {
    const token = randomToken(24);
    await ctx.meta.run('UPDATE nc_users SET invite_token_hash = ?, invite_expires_at = ?, updated_at = ? WHERE id = ?', [
      sha256(token),
      new Date(Date.now() + LIMITS.inviteTtlMs).toISOString(),
      nowIso(),
      userId,
    ]);
    return `${baseUrl()}/#/user/authentication/signup/${token}`;
  }

  /** Mails the invite through the mail plugin, or logs the link when there is none (or it fails). */
  async function sendInvite(email: string, url: string, projectId: string, roles: string, inviter: string | null) {
    const project = (await projects.get(projectId))?.title ?? projectId;
    return mailOrLog(ctx, email, inviteMail(ctx, { inviter, project, roles, url }), `invite link for ${email}: ${url}`);
  }

  /** Mails an existing account that it was added to a project (logged when there is no mail plugin). */
  async function sendAdded(email: string, projectId: string, roles: string, inviter: string | null) {
    const project = (await projects.get(projectId))?.title ?? projectId;
    const url = `${baseUrl()}/#/nc/${projectId}`;
    return mailOrLog(ctx, email, addedMail(ctx, { inviter, project, roles, url }), `${email} added to '${project}': ${url}`);
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
      const inviteUrl = user.password_hash ? null : await issueInvite(user.id);
      await ctx.meta.run('INSERT INTO nc_project_users (project_id, user_id, roles, created_at) VALUES (?, ?, ?, ?)', [input.project_id, user.id, input.roles.join(','), nowIso()]);
      projects.forgetRoles();
      // A new account gets its sign-up link; an existing one is told where the project is.
      const sent = inviteUrl
        ? await sendInvite(input.email, inviteUrl, input.project_id, input.roles.join(','), caller.actor.email ?? null)
        : await sendAdded(input.email, input.project_id, input.roles.join(','), caller.actor.email ?? null);
      await audit.write({ op_type: 'TEAM', project_id: input.project_id, description: `${input.email} invited as ${input.roles.join(',')}`, user_email: caller.actor.email ?? null });
      if (sent.mailed) return inviteUrl ? { msg: `The invite was sent by e-mail to ${input.email}`, email: input.email, mailed: true } : { msg: `${input.email} was added to the project and told by e-mail`, email: input.email, mailed: true };
      return inviteUrl ? { msg: 'The user was invited', invite_url: inviteUrl, email: input.email, ...(sent.error ? { mail_error: sent.error } : {}) } : { msg: 'The user was added to the project', email: input.email };
    })
    .put('/admin/:userId', async ({ request, params, body }) => {
      const input = parseBody(RolesBody, body);
      const caller = await manager(request, input.project_id);
      grantable(caller, input.roles);
      const current = await projects.memberRoles(input.project_id, params.userId);
      if (!current.length) throw notFound('This user is not a member of the project');
      if (current.includes('owner') && !caller.isOwner) throw forbidden('Only owners can change the role of an owner');
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
      const inviteUrl = await issueInvite(u.id);
      const roles = (await projects.memberRoles(projectId!, u.id)).join(',');
      const sent = await sendInvite(u.email, inviteUrl, projectId!, roles, caller.actor.email ?? null);
      await audit.write({ op_type: 'TEAM', project_id: projectId, description: `invite to ${u.email} sent again`, user_email: caller.actor.email ?? null });
      if (sent.mailed) return { msg: `The invite was sent again by e-mail to ${u.email}`, mailed: true };
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
        // Invited to no other project: the account that only held the invite goes too.
        if (others) await tx.run('UPDATE nc_users SET invite_token_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE id = ?', [nowIso(), u.id]);
        else await tx.run('DELETE FROM nc_users WHERE id = ?', [u.id]);
      });
      users.forget(u.id);
      projects.forgetRoles();
      await audit.write({ op_type: 'TEAM', project_id: projectId, description: `invite to ${u.email} revoked`, user_email: caller.actor.email ?? null });
      return { msg: 'The invite was revoked' };
    });
}
