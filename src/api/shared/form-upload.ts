/**
 * `POST /api/v1/shared/{uuid}/attachments/{column}`: files for an Attachment field of a shared form,
 * before the form is submitted. Allowed only on a form view, for an Attachment column the form
 * shows, with the link's password when it has one (checked by openLink like every public route),
 * within the dashboard's limits (size 413, accepted types 400, the column's file count) and the
 * rights of the link's creator to create rows with that column. The files stay pending and
 * unreadable until a submission through the same link names them (src/attachments/form-uploads.ts).
 */
import type { AppContext } from '../../context';
import { assertCan, assertColumns } from '../../data/access';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { storeFormUploads, uploadOwner } from '../../attachments/form-uploads';
import { filesOfBody } from '../../attachments/upload';
import type { FileEntry } from '../../attachments/cell';
import type { SharedLink } from './link-context';

/** Stores the files of one upload to field `column` of shared form `s`; answers their entries. */
export async function uploadToSharedForm(ctx: AppContext, s: SharedLink, request: Request, column: string | null | undefined, body: unknown): Promise<{ uploaded: FileEntry[] }> {
  if (s.view.type !== 'form') throw forbidden('Only a shared form accepts uploads');
  const c = typeof column === 'string' ? s.columns.find((x) => !x.virtual && (x._cn === column || x.cn === column)) : undefined;
  if (!c) throw notFound(`Column '${column ?? ''}' is not a field of this form`);
  if (c.uidt !== 'Attachment') throw badRequest(`Column '${c._cn}' is not an Attachment column`);
  assertColumns(assertCan(s.dc.actor, s.table, 'create', s.dc.acl), s.table, 'create', [c]);
  if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) throw badRequest('Send the files as multipart/form-data');
  return storeFormUploads(ctx, s.dc, s.table, c, uploadOwner.link(s.link.uuid), filesOfBody(body));
}
