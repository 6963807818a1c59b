/**
 * Project metadata: export to a zip, import one (restarting the project), reset, and a new project
 * made from a zip plus a connection (the zip carries no connection). Owners and creators.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { auditRepo } from '../../../meta/audit-repo';
import { badRequest } from '../../../lib/errors';
import { projectsRepo } from '../../../meta/projects-repo';
import { ARCHIVE_LIMITS } from '../meta-archive/zip-io';
import { exportProjectMeta, importProjectMeta, parseArchive, resetProjectMeta } from '../meta-archive/archive';
import { projectCreateByWeb } from './project-create';
import { contentDisposition } from '../../../http/content-disposition';

/** The uploaded zip of a call, read within the archive's size bound. */
async function uploadedZip(call: OpCall): Promise<Uint8Array> {
  if (!call.file) throw badRequest("Upload the metadata zip as the multipart field 'file'");
  if (call.file.size > ARCHIVE_LIMITS.zipBytes) throw badRequest(`The zip is larger than ${ARCHIVE_LIMITS.zipBytes} bytes`);
  return new Uint8Array(await call.file.arrayBuffer());
}

export const xcMetaTablesExportDbToZip: DashboardOp = {
  name: 'xcMetaTablesExportDbToZip',
  access: 'projectAdmin',
  async run({ ctx, projectId }) {
    const { zip, filename } = await exportProjectMeta(ctx, projectId);
    return new Response(zip as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': 'application/zip', 'content-disposition': contentDisposition('attachment', filename), 'cache-control': 'no-store' },
    });
  },
};

/** What an import writes to the audit log: how many entries it left out. */
const importedText = (n: number) => (n === 0 ? 'metadata imported' : n === 1 ? `metadata imported (${n} entry skipped)` : `metadata imported (${n} entries skipped)`);

export const xcMetaTablesImportZipToLocalFsAndDb: DashboardOp = {
  name: 'xcMetaTablesImportZipToLocalFsAndDb',
  access: 'projectAdmin',
  async run(call) {
    const archive = parseArchive(await uploadedZip(call));
    const { skipped, retype } = await importProjectMeta(call.ctx, call.projectId, archive);
    await auditRepo(call.ctx.meta).write({ op_type: 'METADATA', project_id: call.projectId, description: importedText(skipped.length), user_email: call.actor.email ?? null });
    return { ok: true, skipped, retype };
  },
};

export const xcMetaTablesReset: DashboardOp = {
  name: 'xcMetaTablesReset',
  access: 'projectAdmin',
  async run({ ctx, projectId, actor }) {
    await resetProjectMeta(ctx, projectId);
    await auditRepo(ctx.meta).write({ op_type: 'METADATA', project_id: projectId, description: 'metadata cleared', user_email: actor.email ?? null });
    return { ok: true };
  },
};

/** Most projects tried when the zip's title is taken: 'Sales (2)' .. 'Sales (100)'. */
const FREE_TITLE_TRIES = 100;

/**
 * The zip's own title, or the first free 'Title (n)' when a project already has it: the zip of a
 * project of this server (a copy, a restore beside the original) is imported without asking for a
 * name. A title the caller chose is kept as it is (and refused if taken).
 */
async function freeTitle(call: OpCall, title: string): Promise<string> {
  const repo = projectsRepo(call.ctx.meta);
  if (!(await repo.titleTaken(title))) return title;
  for (let n = 2; n <= FREE_TITLE_TRIES; n++) {
    const candidate = `${title.slice(0, 100 - ` (${n})`.length)} (${n})`;
    if (!(await repo.titleTaken(candidate))) return candidate;
  }
  return title;
}

const CreateArgs = z.object({ title: z.string().trim().min(1).max(100).optional(), db: z.unknown().optional() }).loose();

/**
 * A new project from a metadata zip: made like projectCreateByWeb over the given connection (or a
 * new embedded database) and named as the zip's project (see freeTitle), then the zip is applied; if
 * the zip is refused, the new project is removed.
 */
export const projectCreateByZip: DashboardOp = {
  name: 'projectCreateByZip',
  access: 'creator',
  async run(call) {
    const archive = parseArchive(await uploadedZip(call));
    const a = parseArgs(CreateArgs, call.args);
    const made = (await projectCreateByWeb.run({
      ...call,
      args: { ...a, title: a.title ?? (await freeTitle(call, archive.manifest.project.title)), projectType: archive.manifest.project.projectType },
    })) as { id: string; title: string };
    try {
      const { skipped, retype } = await importProjectMeta(call.ctx, made.id, archive);
      return { ...made, skipped, retype };
    } catch (e) {
      await call.ctx.projects.evict(made.id).catch(() => {});
      await projectsRepo(call.ctx.meta).delete(made.id);
      throw e;
    }
  },
};
