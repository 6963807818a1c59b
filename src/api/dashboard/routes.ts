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
import type { OpAccess, OpCall } from './op';
import { readDashboardUpload } from '../transfer/multipart';
import { rolesInProject } from '../../data/access';
import { LIMITS } from '../../config/limits';
import { rmSync } from 'node:fs';

/** The body of a multipart call, left unread by the framework (read as a stream below). */
const MULTIPART = Symbol('multipart');

const ADMIN_ROLES = ['owner', 'creator'];
/** Uploads up to this size are also handed to operations as a File (metadata zips, logos). */
const SMALL_UPLOAD_BYTES = 50 * 1024 * 1024;

const isSuper = (a: Actor) => a.kind === 'master' || !!a.superAdmin || a.roles.includes('super');

/** Throws unless the actor may run an operation of this access level. */
export function checkAccess(access: OpAccess, actor: Actor, projectRoles: string[]): void {
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  if (access === 'signedIn' || (isSuper(actor) && !actor.previewAs)) return;
  // An owner/creator (or Super Admin) previewing a lower role acts with that role only.
  const roles = rolesInProject(actor, projectRoles);
  switch (access) {
    case 'creator':
      if (actor.roles.includes('user')) return;
      break;
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
  const dispatch = async (request: Request, q0: unknown, body: unknown, upload: OpCall['upload']) => {
    const b = (body && typeof body === 'object' ? body : {}) as Body;
    // The envelope's names are text: an object for project_id reached the metadata store (a 500).
    for (const key of ['api', 'project_id', 'projectId', 'dbAlias', 'env'] as const) {
      if (b[key] !== undefined && b[key] !== null && typeof b[key] !== 'string') throw badRequest(`${key} must be a string`);
    }
    const q = typeof q0 === 'string' ? q0 : '';
    const inUrl = q.replace(/^sqlOp(Plus)?_/, '');
    // The URL names what the call does for anything that reads it (logs, proxies): it may not say another.
    if (b.api && inUrl && b.api !== inUrl) throw badRequest(`The operation named in the URL ('${inUrl}') and in the body ('${b.api}') differ`);
    const name = b.api || inUrl;
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
    const file = upload && upload.size <= SMALL_UPLOAD_BYTES ? new File([await Bun.file(upload.path).arrayBuffer()], upload.filename, { type: upload.mimeType }) : undefined;
    return op.run({ ctx, actor, request, projectId, dbAlias: b.dbAlias || 'db', env: b.env, args: b.args, projectRoles, upload, file });
  };
  return new Elysia({ name: 'dashboard' })
    .get('/dashboard', () => ({ ok: true, version: ctx.version }))
    .post('/dashboard', async ({ request, query, body: parsed }) => {
      const up = parsed === MULTIPART ? await readDashboardUpload(request, ctx.dataDir, LIMITS.importMaxBytes, async () => (await resolveActor(ctx, request)).kind !== 'guest') : undefined;
      try {
        return await dispatch(request, query.q, up ? up.body : parsed, up?.upload);
      } finally {
        if (up?.upload) rmSync(up.upload.path, { force: true });
      }
    }, { parse: ({ request }) => ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data') ? MULTIPART : undefined) });
}
