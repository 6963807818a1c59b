/** PROJECT_READ_BY_WEB: the caller's projects (the master key sees all, an API token its own project). */
import type { DashboardOp } from '../op';
import { projectsRepo, type ProjectRow } from '../../../meta/projects-repo';

const view = (p: ProjectRow & { roles?: string }) => ({
  id: p.id,
  title: p.title,
  status: p.status,
  projectType: p.project_type,
  workingEnv: p.working_env,
  roles: p.roles ? Object.fromEntries(p.roles.split(',').map((r) => [r, true])) : {},
  createdAt: p.created_at,
  updatedAt: p.updated_at,
});

export const projectList: DashboardOp = {
  name: 'PROJECT_READ_BY_WEB',
  access: 'signedIn',
  async run({ ctx, actor }) {
    const repo = projectsRepo(ctx.meta);
    if (actor.kind === 'token') {
      const own = actor.tokenProjectId ? await repo.get(actor.tokenProjectId) : undefined;
      return { data: { list: own ? [view({ ...own, roles: actor.roles.join(',') })] : [] } };
    }
    const rows = actor.kind === 'master' ? await repo.listAll() : actor.userId ? await repo.listForUser(actor.userId) : [];
    return { data: { list: rows.map(view) } };
  },
};
