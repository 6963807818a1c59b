/**
 * projectStop, projectStart, projectRestart, projectDelete. Deleting removes the metadata, never
 * the external database; an embedded (xcdb) file is deleted only when `deleteFile` is asked.
 */
import { rmSync } from 'node:fs';
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { projectsRepo } from '../../../meta/projects-repo';
import { connectionOf } from '../../../schema/registry';

export const projectStop: DashboardOp = {
  name: 'projectStop',
  access: 'projectAdmin',
  async run({ ctx, projectId }) {
    await projectsRepo(ctx.meta).setStatus(projectId, 'stopped');
    await ctx.projects.evict(projectId);
    return { ok: true };
  },
};

export const projectStart: DashboardOp = {
  name: 'projectStart',
  access: 'projectAdmin',
  async run({ ctx, projectId }) {
    const repo = projectsRepo(ctx.meta);
    await repo.setStatus(projectId, 'started');
    try {
      await ctx.projects.get(projectId);
    } catch (e) {
      await repo.setStatus(projectId, 'stopped');
      throw e;
    }
    return { ok: true };
  },
};

export const projectRestart: DashboardOp = {
  name: 'projectRestart',
  access: 'projectAdmin',
  async run(call) {
    await call.ctx.projects.evict(call.projectId);
    return projectStart.run(call);
  },
};

const DeleteArgs = z.object({ deleteFile: z.boolean().default(false) });

export const projectDelete: DashboardOp = {
  name: 'projectDelete',
  access: 'projectAdmin',
  async run({ ctx, projectId, args }) {
    const { deleteFile } = parseArgs(DeleteArgs, args);
    const repo = projectsRepo(ctx.meta);
    const files = (await repo.dbs(projectId))
      .filter((d) => d.is_xcdb)
      .map((d) => connectionOf(d, ctx.secrets.connectionKey, ctx.dataDir).connection.filename!);
    await ctx.projects.evict(projectId);
    await repo.delete(projectId);
    if (deleteFile) for (const f of files) for (const suffix of ['', '-wal', '-shm']) rmSync(f + suffix, { force: true });
    return { ok: true };
  },
};
