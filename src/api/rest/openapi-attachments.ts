/**
 * OpenAPI paths of a table's Attachment columns: the multipart upload
 * `POST {Table}/{id}/attachments/{column}` and the read `GET .../attachments/{column}/{fileId}`.
 */
import type { TableModel } from '../../schema/model';

type Json = Record<string, unknown>;

const msg = { description: 'Error', content: { 'application/json': { schema: { type: 'object', properties: { msg: { type: 'string' } }, required: ['msg'] } } } };
const errors = {
  '400': { ...msg, description: 'No file, a type the column does not accept, more files than it holds, an unusable name, or not an Attachment column' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { ...msg, description: 'Not allowed to update this column' },
  '404': { ...msg, description: 'Unknown table, row (or a row outside your row rule), column or file' },
};
const fileEntry = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' }, mimetype: { type: 'string' }, size: { type: 'integer' }, path: { type: 'string' } },
};

/** The attachment paths of one table under `base` (`/{Table}`), one pair per Attachment column. */
export function attachmentPaths(t: TableModel, base: string, name: string, idParam: Json): Record<string, Json> {
  if (!t.pks.length || t.type === 'view') return {};
  const paths: Record<string, Json> = {};
  for (const c of t.columns.filter((x) => x.uidt === 'Attachment')) {
    const col = encodeURIComponent(c._cn);
    const tags = [t._tn];
    paths[`${base}/{id}/attachments/${col}`] = {
      post: {
        tags,
        summary: `Upload files to '${c._cn}'`,
        'x-tablo-summary': { kind: 'upload', table: t._tn, column: c._cn },
        description: `Adds one or several files (multipart/form-data, any field names) to the cell, stored by the active storage plugin. Needs the update right on '${c._cn}' and the row in your row rule. Limits: ${c.meta?.maxFiles ?? 'any number of'} files, types ${c.meta?.accept?.join(', ') ?? 'any'}, each file at most the server's NC_ATTACHMENT_MAX_BYTES.`,
        operationId: `${name}-${c._cn.replace(/[^A-Za-z0-9_.-]/g, '_')}-upload`,
        parameters: [idParam],
        requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } } } } } },
        responses: {
          '200': { description: 'The files added and the new cell value', content: { 'application/json': { schema: { type: 'object', properties: { uploaded: { type: 'array', items: fileEntry }, value: { type: 'array', items: fileEntry } } } } } },
          ...errors,
          '413': { ...msg, description: 'A file is larger than the limit' },
        },
      },
    };
    paths[`${base}/{id}/attachments/${col}/{fileId}`] = {
      get: {
        tags,
        summary: `Read a file of '${c._cn}'`,
        'x-tablo-summary': { kind: 'file', table: t._tn, column: c._cn },
        description: 'The file, if you may read this row and column and the cell holds it. Local storage streams it; S3 storage answers 302 to a short-lived signed URL. With `link=1`: `{ url, expiresAt }`, a short-lived link that needs no headers.',
        operationId: `${name}-${c._cn.replace(/[^A-Za-z0-9_.-]/g, '_')}-file`,
        parameters: [idParam, { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } }, { name: 'link', in: 'query', required: false, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'The file (or, with link, its signed link)', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: { type: 'object', properties: { url: { type: 'string' }, expiresAt: { type: 'string' } } } } } },
          '302': { description: 'Redirect to a short-lived signed URL (S3 storage)' },
          ...errors,
        },
      },
    };
  }
  return paths;
}
