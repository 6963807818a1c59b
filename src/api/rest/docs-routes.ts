/**
 * API documentation per project: `projectApiInfo`, the OpenAPI document per database alias, and
 * a Swagger UI page whose assets are embedded in the binary. The page sends the signed-in user's
 * token (same origin, so it reads the web app's stored token).
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../../context';
import { forbidden, notFound, unauthorized } from '../../lib/errors';
import { projectsRepo } from '../../meta/projects-repo';
import { projectRolesOf, resolveActor } from '../../http/principal';
import { buildOpenApi } from './openapi';
import { dataContext } from './context';
import type { DataContext } from '../../data/data-context';
import type { ProjectDb } from '../../schema/project-db';
import { isUnrestricted } from '../../data/access';
import { readableModel } from '../../data/read-scope';
import { htmlResponse } from '../../http/security-headers';
import { requestPathOf } from '../../http/link-base';
// Embedded as files in the compiled binary.
// @ts-ignore: a file import, not a module
import swaggerBundle from '../../../node_modules/swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
// @ts-ignore: a file import, not a module
import swaggerCss from '../../../node_modules/swagger-ui-dist/swagger-ui.css' with { type: 'file' };

const READ_ROLES = ['owner', 'creator', 'editor', 'commenter', 'viewer'];

/** The project, when the caller may read it. */
async function readableProject(ctx: AppContext, request: Request, projectId: string) {
  const actor = await resolveActor(ctx, request);
  if (actor.kind === 'guest') throw unauthorized('Not signed in');
  const project = await projectsRepo(ctx.meta).get(projectId);
  if (!project) throw notFound(`Project '${projectId}' not found`);
  const superUser = actor.kind === 'master' || actor.superAdmin;
  if (!superUser && !(await projectRolesOf(ctx, actor, projectId)).some((r) => READ_ROLES.includes(r))) throw forbidden('Not allowed');
  return project;
}

/** The project database as the caller may read it, for its document (the rest is hidden from them everywhere). */
const readablePart = (dc: DataContext): ProjectDb => (isUnrestricted(dc.actor) ? dc.pdb : { ...dc.pdb, model: readableModel(dc) });

/** Text for HTML, and JSON that cannot close the script it sits in. */
const html = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** Swagger UI's page; its files, spec and icon addressed from the page itself (it may be served under a path). */
const swaggerPage = (projectId: string, dbAlias: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tablo API: ${html(projectId)}</title>
<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%232563eb'/%3E%3Cpath d='M3 5.5h10M3 8.5h10M3 11.5h10M6.5 3v10M9.5 3v10' stroke='%23fff' stroke-width='1.2'/%3E%3C/svg%3E">
<link rel="stylesheet" href="../../_swagger/swagger-ui.css"></head>
<body><div id="swagger"></div>
<script src="../../_swagger/swagger-ui-bundle.js"></script>
<script>
  const token = localStorage.getItem('tablo.token');
  window.ui = SwaggerUIBundle({
    url: ${scriptJson(`docs/openapi.json?dbAlias=${encodeURIComponent(dbAlias)}`)},
    dom_id: '#swagger',
    persistAuthorization: true,
    requestInterceptor: (req) => { if (token && !req.headers['xc-token']) req.headers['xc-auth'] = token; return req; },
  });
</script></body></html>`;

export function docsRoutes(ctx: AppContext) {
  return new Elysia({ name: 'rest-docs' })
    .get('/_swagger/swagger-ui-bundle.js', () => new Response(Bun.file(swaggerBundle as unknown as string), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }))
    .get('/_swagger/swagger-ui.css', () => new Response(Bun.file(swaggerCss as unknown as string), { headers: { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=86400' } }))
    .get('/nc/:projectId/projectApiInfo', async ({ request, params }) => {
      const project = await readableProject(ctx, request, params.projectId);
      const dbs = (await projectsRepo(ctx.meta).dbs(project.id)).filter((d) => d.env === project.working_env);
      const base = requestPathOf(ctx.config, request, `/nc/${encodeURIComponent(project.id)}`);
      return {
        info: Object.fromEntries(
          dbs.map((d) => [
            d.db_alias,
            // The project's access type puts its own endpoint first (api-contract section 3).
            project.project_type === 'graphql'
              ? { apiType: project.project_type, gqlApiUrl: `${base}/v1/graphql`, restApiUrl: `${base}/api/v1`, swaggerUrl: `${base}/docs?dbAlias=${d.db_alias}` }
              : { apiType: project.project_type, restApiUrl: `${base}/api/v1`, swaggerUrl: `${base}/docs?dbAlias=${d.db_alias}`, gqlApiUrl: `${base}/v1/graphql` },
          ]),
        ),
      };
    })
    .get('/nc/:projectId/docs/openapi.json', async ({ request, params, query }) => {
      const project = await readableProject(ctx, request, params.projectId);
      const dbAlias = typeof query.dbAlias === 'string' && query.dbAlias ? query.dbAlias : 'db';
      const pdb = readablePart(await dataContext(ctx, request, project.id, dbAlias));
      return buildOpenApi({ projectId: project.id, title: project.title, version: ctx.version, pdb, serverUrl: requestPathOf(ctx.config, request, `/nc/${encodeURIComponent(project.id)}`) });
    })
    .get('/nc/:projectId/docs', ({ params, query }) => {
      const dbAlias = typeof query.dbAlias === 'string' && query.dbAlias ? query.dbAlias : 'db';
      // Its one inline script is allowed by hash in the page's Content-Security-Policy.
      return htmlResponse(swaggerPage(params.projectId, dbAlias));
    });
}
