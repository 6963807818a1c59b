/**
 * Shared view links (api-contract section 6), for owners, creators and editors (editors list and
 * change only the links they made):
 *
 * - `createSharedViewLink` `{ view_id, password?, allowCsvDownload? }` -> `{ uuid, url }`;
 * - `updateSharedViewLinkPassword` `{ uuid, password: string | null }` -> `{ ok: true }` (null removes it);
 * - `updateSharedViewLink` `{ uuid, allowCsvDownload }` -> `{ ok: true }` (the link keeps its address and password);
 * - `listSharedViewLinks` `{ tn? }` -> `{ data: { list: [ { uuid, view_id, title, type, tn, url, hasPassword, allowCsvDownload } ] } }`;
 * - `deleteSharedViewLink` `{ uuid }` -> `{ ok: true }`.
 *
 * `url` is `<public URL>/#/nc/view/<uuid>`: NC_PUBLIC_URL, else the origin of the request. Passwords
 * are stored as argon2id hashes and never answered. The public side is src/api/shared/routes.ts.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { forbidden, notFound } from '../../../lib/errors';
import { viewsRepo } from '../../../meta/views-repo';
import { grantOf, isUnrestricted } from '../../../data/access';
import type { DataContext } from '../../../data/data-context';
import { linkBase } from '../../../http/link-base';
import { hashLinkPassword } from '../../shared/password-guard';
import { assertViewEditor, callerContext, readableTableOf, viewOf } from '../../views/view-access';

const Password = z.string().min(1, 'A password cannot be empty (null removes it)').max(256);
const CreateArgs = z.object({ view_id: z.string().min(1), password: z.union([Password, z.literal('')]).nullish(), allowCsvDownload: z.boolean().optional() });
const PasswordArgs = z.object({ uuid: z.string().min(1), password: Password.nullable() });
const ListArgs = z.object({ tn: z.string().min(1).optional() });
const UuidArgs = z.object({ uuid: z.string().min(1) });

/** The address of a shared link's page in the web app. */
export function sharedLinkUrl(call: Pick<OpCall, 'ctx' | 'request'>, uuid: string): string {
  return `${linkBase(call.ctx.config, call.request)}/#/nc/view/${uuid}`;
}

/**
 * Whether the caller may see and change a link: owners and creators (and the Super Admin, the master
 * key) every link, editors their own. A link reads with its creator's rights, so an editor holding
 * another's link (an owner's, say) could read what their own role hides: removing its password was enough.
 */
const managesLink = (dc: DataContext, createdBy: string | null) => isUnrestricted(dc.actor) || (!!dc.actor.userId && createdBy === dc.actor.userId);

/** The caller (a view editor) and the link `uuid` of their project database whose table they may read. */
async function editorLink(call: OpCall, uuid: string): Promise<DataContext> {
  const dc = await callerContext(call.ctx, call.request, call.projectId, call.dbAlias);
  assertViewEditor(dc);
  const link = await viewsRepo(call.ctx.meta).link(uuid);
  if (!link || link.project_id !== call.projectId || link.db_alias !== dc.pdb.dbAlias || !managesLink(dc, link.created_by)) throw notFound('Shared view not found');
  await viewOf(call.ctx, dc, call.projectId, link.view_id);
  return dc;
}

export const createSharedViewLink: DashboardOp = {
  name: 'createSharedViewLink',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(CreateArgs, call.args);
    const dc = await callerContext(call.ctx, call.request, call.projectId, call.dbAlias);
    assertViewEditor(dc);
    const { view } = await viewOf(call.ctx, dc, call.projectId, a.view_id);
    const passwordHash = a.password ? await hashLinkPassword(a.password) : null;
    // A link reads with its creator's rights, so only a user (not an API token or the master key) makes one.
    const createdBy = dc.actor.userId;
    if (!createdBy) throw forbidden('Shared links are made by signed-in users (the link reads with their rights)');
    const uuid = await viewsRepo(call.ctx.meta).createLink({ viewId: view.id, projectId: call.projectId, dbAlias: dc.pdb.dbAlias, passwordHash, allowCsvDownload: !!a.allowCsvDownload, createdBy });
    return { uuid, url: sharedLinkUrl(call, uuid) };
  },
};

export const updateSharedViewLinkPassword: DashboardOp = {
  name: 'updateSharedViewLinkPassword',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(PasswordArgs, call.args);
    await editorLink(call, a.uuid);
    await viewsRepo(call.ctx.meta).setLinkPassword(a.uuid, a.password === null ? null : await hashLinkPassword(a.password));
    return { ok: true };
  },
};

export const updateSharedViewLink: DashboardOp = {
  name: 'updateSharedViewLink',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(z.object({ uuid: z.string().min(1), allowCsvDownload: z.boolean() }), call.args);
    await editorLink(call, a.uuid);
    await viewsRepo(call.ctx.meta).setLinkCsv(a.uuid, a.allowCsvDownload);
    return { ok: true };
  },
};

export const listSharedViewLinks: DashboardOp = {
  name: 'listSharedViewLinks',
  access: 'projectMember',
  async run(call) {
    const { tn } = parseArgs(ListArgs, call.args);
    const dc = await callerContext(call.ctx, call.request, call.projectId, call.dbAlias);
    assertViewEditor(dc);
    const t = tn ? readableTableOf(dc, tn) : undefined;
    const links = await viewsRepo(call.ctx.meta).links(call.projectId, dc.pdb.dbAlias, t?.tn);
    const readable = (linkTn: string) => {
      const table = dc.pdb.model.tables.find((x) => x.tn === linkTn);
      return !!table && !!grantOf(dc.actor, dc.acl, table, 'read');
    };
    return {
      data: {
        list: links
          .filter((l) => readable(l.tn) && managesLink(dc, l.created_by))
          .map((l) => ({ uuid: l.uuid, view_id: l.view_id, title: l.title, type: l.type, tn: l.tn, url: sharedLinkUrl(call, l.uuid), hasPassword: !!l.password_hash, allowCsvDownload: l.allow_csv_download })),
      },
    };
  },
};

export const deleteSharedViewLink: DashboardOp = {
  name: 'deleteSharedViewLink',
  access: 'projectMember',
  async run(call) {
    const { uuid } = parseArgs(UuidArgs, call.args);
    await editorLink(call, uuid);
    await viewsRepo(call.ctx.meta).deleteLink(uuid);
    return { ok: true };
  },
};

/** The shared-link operations, for the registry. */
export const SHARED_VIEW_OPS: DashboardOp[] = [createSharedViewLink, updateSharedViewLinkPassword, updateSharedViewLink, listSharedViewLinks, deleteSharedViewLink];
