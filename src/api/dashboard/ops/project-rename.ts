/**
 * projectRename: a project's owners and creators change its title (a typo made at creation, a
 * project that changed purpose). The id, and so every API address, stays; a title another project
 * has (case ignored) answers 409, as at creation.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { conflict } from '../../../lib/errors';
import { projectsRepo } from '../../../meta/projects-repo';
import { ProjectTitle } from './project-create';

const Args = z.object({ title: ProjectTitle });

export const projectRename: DashboardOp = {
  name: 'projectRename',
  access: 'projectAdmin',
  async run({ ctx, projectId, args }) {
    const { title } = parseArgs(Args, args);
    const repo = projectsRepo(ctx.meta);
    if (await repo.titleTaken(title, projectId)) throw conflict(`A project named '${title}' already exists`);
    await repo.rename(projectId, title);
    return { id: projectId, title };
  },
};
