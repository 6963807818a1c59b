/**
 * Attachment routes of the REST API:
 * - `POST /nc/{projectId}/api/v1/{Table}/{id}/attachments/{column}`: multipart upload of one or
 *   several files (src/attachments/upload.ts);
 * - `POST /nc/{projectId}/api/v1/{Table}/attachments/{column}`: files for a row not made yet (a form
 *   view's Attachment field), kept pending until a create names them (src/attachments/form-uploads.ts);
 * - `GET .../attachments/{column}/{fileId}`: the file, if the caller may read that row and column
 *   and the row holds it (local storage: streamed; S3: a redirect to a short-lived signed URL);
 *   `?link=1` answers `{ url, expiresAt }` instead, a short-lived link an <img> can load;
 * - `GET /api/files/{fileId}?exp=&sig=`: the signed link of a locally stored file.
 */
import { Elysia } from 'elysia';
import type { AppContext } from '../context';
import { dataContext, tableByName } from '../api/rest/context';
import { badRequest, notFound } from '../lib/errors';
import { filesRepo, type StoredFile } from '../meta/files-repo';
import { storageNamed } from '../plugins/state';
import { attachmentColumn, readCell } from './cell';
import { filesOfBody, uploadToCell } from './upload';
import { storeFormUploads, uploadOwner } from './form-uploads';
import { assertCan, assertColumns } from '../data/access';
import { knownToWriter } from '../data/read-scope';
import { servedAs } from '../http/content-disposition';
import { signedFileLink, storageSignedUrl, validFileSignature } from './file-links';

const seg = (v: string | null | undefined): string => {
  if (typeof v !== 'string') throw badRequest('The URL holds a malformed escape (%)');
  return v;
};

function fileResponse(f: StoredFile, blob: Blob): Response {
  const served = servedAs(f.mimetype, f.name);
  return new Response(blob, {
    headers: {
      'content-type': served.type,
      'content-length': String(blob.size),
      'content-disposition': served.disposition,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=300',
    },
  });
}

export function attachmentRoutes(ctx: AppContext) {
  const files = filesRepo(ctx.meta);

  /** The stored file the caller may read: row and column through the data core, and the row must hold it. */
  async function readable(request: Request, p: { projectId: string; table: string; id: string; column: string; fileId: string }): Promise<StoredFile> {
    const dc = await dataContext(ctx, request, p.projectId);
    const t = tableByName(dc.pdb, p.table);
    const c = attachmentColumn(t, seg(p.column));
    const { files: held, rowKey } = await readCell(dc, t, seg(p.id), c);
    const f = await files.get(seg(p.fileId));
    const gone = () => notFound(`File '${p.fileId}' not found in this cell`);
    if (!f || f.state !== 'attached' || !held.some((e) => e.id === f.id)) throw gone();
    if (f.project_id !== dc.pdb.projectId || f.db_alias !== dc.pdb.dbAlias || f.tn !== t.tn || f.cn !== c.cn || f.pk !== rowKey) throw gone();
    return f;
  }

  async function serve(f: StoredFile): Promise<Response> {
    const storage = storageNamed(ctx, f.storage);
    if (!storage) throw notFound(`The ${f.storage} storage of this file is not configured any more`);
    const blob = await storage.get(f.storage_key);
    if (!blob) throw notFound('The file is missing from storage');
    return fileResponse(f, blob);
  }

  return new Elysia({ name: 'attachments' })
    .post('/nc/:projectId/api/v1/:table/:id/attachments/:column', async ({ request, params, body }) => {
      const dc = await dataContext(ctx, request, params.projectId);
      const t = tableByName(dc.pdb, params.table);
      if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) throw badRequest('Send the files as multipart/form-data');
      return uploadToCell(ctx, dc, t, seg(params.id), seg(params.column), filesOfBody(body));
    })
    .post('/nc/:projectId/api/v1/:table/attachments/:column', async ({ request, params, body }) => {
      const dc = await dataContext(ctx, request, params.projectId);
      const t = tableByName(dc.pdb, params.table);
      const g = assertCan(dc.actor, t, 'create', dc.acl);
      const c = attachmentColumn(t, seg(params.column), knownToWriter(dc, t, g));
      assertColumns(g, t, 'create', [c]);
      if (!(request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) throw badRequest('Send the files as multipart/form-data');
      return storeFormUploads(ctx, dc, t, c, uploadOwner.of(dc), filesOfBody(body));
    })
    .get('/nc/:projectId/api/v1/:table/:id/attachments/:column/:fileId', async ({ request, params, query }) => {
      const f = await readable(request, params);
      if (query.link !== undefined) return { ...signedFileLink(ctx, f, request), title: f.name, mimetype: f.mimetype, size: f.size };
      const signed = storageSignedUrl(ctx, f);
      if (signed) return new Response(null, { status: 302, headers: { location: signed, 'cache-control': 'no-store' } });
      return serve(f);
    })
    .get('/api/files/:fileId', async ({ params, query }) => {
      const sig = typeof query.sig === 'string' ? query.sig : '';
      const id = seg(params.fileId);
      if (!validFileSignature(ctx, id, Number(query.exp), sig)) throw notFound('This file link is not valid or has expired');
      const f = await files.get(id);
      if (!f || f.state !== 'attached') throw notFound('File not found');
      return serve(f);
    });
}
