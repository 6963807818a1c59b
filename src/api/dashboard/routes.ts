/**
 * `POST /dashboard?q=sqlOp_{api}` (and `sqlOpPlus_{api}`): body `{ api, project_id, dbAlias, env,
 * args }`. Resolves the caller, checks the operation's access, runs it. Unknown names 404,
 * operations the caller may not run 403 `{msg: 'Not allowed'}`.
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import type { Actor } from '../../lib/actor';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { projectsRepo } from '../../meta/projects-repo';
import { projectRolesOf, resolveActor } from '../../http/principal';
import { DASHBOARD_OPS } from './registry';
import type { OpAccess } from './op';

const ADMIN_ROLES = ['owner', 'creator'];

const isSuper = (a: Actor) => a.kind === 'master' || !!a.superAdmin || a.roles.includes('super');

/** Throws unless the actor may run an operation of this access level. */
export function checkAccess(access: OpAccess, actor: Actor, projectRoles: string[]): void {
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  if (access === 'signedIn' || (isSuper(actor) && !actor.previewAs)) return;
  // An owner/creator (or Super Admin) previewing a lower role acts with that role only.
  const roles = actor.previewAs ? [actor.previewAs] : projectRoles;
  switch (access) {
    case 'creator':
      // Creating projects and connecting databases: users the Super Admin allowed (never API tokens).
      if (actor.kind === 'user' && actor.mayCreateProjects) return;
      throw forbidden('Only the Super Admin and users they allow may create projects and connect databases');
    case 'projectMember':
      if (roles.length > 0 && !roles.every((r) => r === 'guest')) return;
      break;
    case 'projectAdmin':
      if (roles.some((r) => ADMIN_ROLES.includes(r))) return;
      break;
  }
  throw forbidden('Not allowed');
}

interface Body {
  api?: string;
  project_id?: string;
  projectId?: string;
  dbAlias?: string;
  env?: string;
  args?: unknown;
}

export function dashboardRoutes(ctx: AppContext) {
  return new Elysia({ name: 'dashboard' })
    .get('/dashboard', () => ({ ok: true, version: ctx.version }))
    .post('/dashboard', async ({ request, query, body }) => {
      // Multipart uploads carry the call as JSON in the field `json` (Elysia may already have parsed it) and the file in `file`.
      const multipart = (request.headers.get('content-type') ?? '').startsWith('multipart/form-data');
      const form = multipart && body && typeof body === 'object' ? (body as { json?: unknown; file?: unknown }) : null;
      let b = (body && typeof body === 'object' ? body : {}) as Body;
      if (form) {
        let call = form.json;
        if (typeof call === 'string') {
          try {
            call = JSON.parse(call);
          } catch {
            throw badRequest("The field 'json' of the upload is not valid JSON");
          }
        }
        if (!call || typeof call !== 'object' || Array.isArray(call)) throw badRequest("The field 'json' of the upload must hold the call as a JSON object");
        b = call as Body;
      }
      const file = form && form.file instanceof File ? form.file : undefined;
      const q = typeof query.q === 'string' ? query.q : '';
      const name = b.api ?? q.replace(/^sqlOp(Plus)?_/, '');
      if (!name) throw badRequest('The operation name is missing (q=sqlOp_{name} or body.api)');
      const op = DASHBOARD_OPS.get(name);
      if (!op) throw notFound(`Unknown operation '${name}'`);
      const actor = await resolveActor(ctx, request);

      const projectId = b.project_id ?? b.projectId ?? '';
      // Schema changes are for owners and creators, whatever access an operation declares.
      const access: OpAccess = op.schemaChanging ? 'projectAdmin' : op.access;
      const scoped = access === 'projectMember' || access === 'projectAdmin';
      let projectRoles: string[] = [];
      if (scoped) {
        if (actor.kind === 'guest') throw unauthorized('Not signed in');
        if (!projectId) throw badRequest('project_id is required for this operation');
        const repo = projectsRepo(ctx.meta);
        if (!(await repo.get(projectId))) throw notFound(`Project '${projectId}' not found`);
        projectRoles = await projectRolesOf(ctx, actor, projectId);
      }
      checkAccess(access, actor, projectRoles);
      return op.run({ ctx, actor, request, projectId, dbAlias: b.dbAlias || 'db', env: b.env, args: b.args, projectRoles, file });
    });
}
