/**
 * The OpenAPI 3.1 document of one project database: every table and SQL view, every route of the
 * generated REST API, query parameters, and schemas built from the column types.
 */
import { attachmentPaths } from './openapi-attachments';
import type { ColumnModel, TableModel } from '../../schema/model';
import type { ProjectDb } from '../../schema/project-db';
import { virtualColumns } from '../../data/columns';

type Json = Record<string, unknown>;

/** JSON Schema of one column's values as the API sends them. */
export function columnSchema(c: ColumnModel): Json {
  const base: Json = (() => {
    switch (c.kind) {
      case 'integer':
        return { type: 'integer' };
      case 'bigint':
        return { type: ['integer', 'string'], description: 'A whole number; text when it is beyond 2^53' };
      case 'decimal':
        return { type: ['number', 'string'], description: 'A number; text when a JavaScript number would lose digits' };
      case 'float':
        return { type: 'number' };
      case 'boolean':
        return { type: 'boolean' };
      case 'date':
        return { type: 'string', format: 'date' };
      case 'datetime':
        return { type: 'string', description: 'YYYY-MM-DD HH:MM:SS', examples: ['2024-01-31 13:45:00'] };
      case 'time':
        return { type: 'string', description: 'HH:MM:SS', examples: ['13:45:00'] };
      case 'json':
        return { description: 'Any JSON value' };
      case 'binary':
        return { type: 'string', contentEncoding: 'base64' };
      default:
        return { type: 'string', ...(c.length && c.length > 0 && c.length < 1e6 ? { maxLength: c.length } : {}), ...(c.enumValues?.length ? { enum: c.enumValues } : {}) };
    }
  })();
  if (c.nullable && Array.isArray(base.type)) base.type = [...(base.type as string[]), 'null'];
  else if (c.nullable && typeof base.type === 'string') base.type = [base.type, 'null'];
  return { ...base, ...(c.pk ? { 'x-primary-key': true } : {}) };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const errors = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
};
const q = (name: string, description: string, schema: Json = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
const LIST_PARAMS = [
  q('where', 'Filter in the where language, e.g. (col,eq,1)~and(col2,like,%x%)'),
  q('limit', 'Page size (default 25, at most the server maximum)', { type: 'integer', minimum: 1 }),
  q('offset', 'Rows to skip', { type: 'integer', minimum: 0 }),
  q('sort', 'Comma list of columns, - for descending: -col,col2'),
  q('fields', 'Comma list of columns to return'),
  q('condition', 'JSON filter: { col: { eq: v }, _or: [...] }'),
  q('conditionGraph', 'JSON filter across relations'),
  q('hm', 'Has-many relations to nest'),
  q('bt', 'Belongs-to relations to nest'),
  q('mm', 'Many-to-many relations to nest'),
];
/** `view=`: a saved view of the table (api-contract section 6), taken by every read but the relation routes. */
const VIEW = q('view', "A saved view of the table, by id or title: its where is ANDed with the request's, its sort applies unless one is sent, its shown columns limit the row");
const HAVING = q('having', 'Filter of the groups in the where language, over the grouped columns and count: (count,gt,1)');
/** Export parameters: the list's, without paging and nesting (an export holds every matching row). */
const EXPORT_PARAMS = [...LIST_PARAMS.filter((p) => !['limit', 'offset', 'hm', 'bt', 'mm'].includes(p.name)), q('bom', 'true: start a CSV with a UTF-8 byte order mark (for Excel)'), VIEW];
const file = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string', format: 'binary' } } } });
const idParam = { name: 'id', in: 'path', required: true, description: 'Primary key; composite keys joined by ___', schema: { type: 'string' } };

/** A name usable in component keys. */
const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');

function tablePaths(t: TableModel, pdb: ProjectDb): Record<string, Json> {
  const name = safe(t._tn);
  const base = `/api/v1/${encodeURIComponent(t._tn)}`;
  const tag = [t._tn];
  const readOnly = t.type === 'view' || t.pks.length === 0;
  const paths: Record<string, Json> = {};
  // x-tablo-summary names the operation's kind and tables, so a client can say the summary in its user's language.
  const op = (summary: string, extra: Json, other?: TableModel) => ({
    tags: tag,
    summary,
    operationId: undefined,
    ...extra,
    'x-tablo-summary': { kind: String(extra.operationId).split('-').pop(), table: t._tn, ...(other ? { other: other._tn } : {}) },
  });
  paths[base] = {
    get: op(`List ${t._tn}`, { operationId: `${name}-list`, parameters: [...LIST_PARAMS, VIEW], responses: { '200': json({ type: 'array', items: ref(name) }), ...errors } }),
    ...(readOnly ? {} : { post: op(`Create a row in ${t._tn}`, { operationId: `${name}-create`, requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Input`) } } }, responses: { '200': json(ref(name)), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }) }),
  };
  paths[`${base}/findOne`] = { get: op('First matching row', { operationId: `${name}-findOne`, parameters: [...LIST_PARAMS, VIEW], responses: { '200': json(ref(name)), ...errors } }) };
  paths[`${base}/count`] = { get: op('Count rows', { operationId: `${name}-count`, parameters: [...LIST_PARAMS.slice(0, 1), ...LIST_PARAMS.slice(5, 7), VIEW], responses: { '200': json({ type: 'object', properties: { count: { type: 'integer' } } }), '504': { $ref: '#/components/responses/Timeout' }, ...errors } }) };
  paths[`${base}/groupby`] = { get: op('Group and count', { operationId: `${name}-groupby`, parameters: [...LIST_PARAMS.slice(0, 4), q('fields', 'Columns to group by'), HAVING, VIEW], responses: { '200': json({ type: 'array', items: { type: 'object' } }), ...errors } }) };
  paths[`${base}/groupby/{column}`] = { get: op('Group and count by one column', { operationId: `${name}-groupbyColumn`, parameters: [{ name: 'column', in: 'path', required: true, description: 'The column to group by', schema: { type: 'string' } }, ...LIST_PARAMS.slice(0, 4), HAVING, VIEW], responses: { '200': json({ type: 'array', items: { type: 'object' } }), ...errors } }) };
  paths[`${base}/aggregate`] = { get: op('Aggregate a column', { operationId: `${name}-aggregate`, parameters: [q('column_name', 'Column'), q('func', 'min,max,avg,sum,count'), q('fields', 'Columns to group by'), LIST_PARAMS[0], q('sort', 'With fields: grouped columns or functions, - for descending: -sum'), VIEW], responses: { '200': json({ type: 'array', items: { type: 'object' } }), ...errors } }) };
  paths[`${base}/distinct`] = { get: op('Distinct values', { operationId: `${name}-distinct`, parameters: [q('cn', 'Column'), q('fields', 'More columns'), ...LIST_PARAMS.slice(0, 3), q('sort', 'Its columns, - for descending'), VIEW], responses: { '200': json({ type: 'array', items: { type: 'object' } }), ...errors } }) };
  paths[`${base}/distribute`] = { get: op('Distribution over ranges', { operationId: `${name}-distribute`, parameters: [q('column_name', 'Numeric column'), q('steps', 'Increasing numbers: 0,100,200'), LIST_PARAMS[0], VIEW], responses: { '200': json({ type: 'array', items: { type: 'object', properties: { range: { type: 'string' }, count: { type: 'integer' } } } }), ...errors } }) };
  paths[`${base}/export/csv`] = { get: op(`Export ${t._tn} as CSV`, { operationId: `${name}-exportCsv`, parameters: EXPORT_PARAMS, responses: { '200': file('text/csv', 'Every matching row as CSV (streamed)'), ...errors } }) };
  paths[`${base}/export/xlsx`] = { get: op(`Export ${t._tn} as XLSX`, { operationId: `${name}-exportXlsx`, parameters: EXPORT_PARAMS, responses: { '200': file('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Every matching row as an Excel workbook (streamed)'), ...errors } }) };
  if (t.pks.length) {
    paths[`${base}/{id}`] = {
      get: op('Read a row', { operationId: `${name}-read`, parameters: [idParam, LIST_PARAMS[4], VIEW], responses: { '200': json(ref(name)), ...errors } }),
      ...(readOnly ? {} : {
        put: op('Update a row', { operationId: `${name}-update`, parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Input`) } } }, responses: { '200': json(ref(name)), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }),
        delete: op('Delete a row', { operationId: `${name}-delete`, parameters: [idParam], responses: { '200': json({ type: 'integer' }), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }),
      }),
    };
    if (!readOnly) Object.assign(paths, attachmentPaths(t, base, name, idParam));
    paths[`${base}/{id}/exists`] = { get: op('Whether a row exists', { operationId: `${name}-exists`, parameters: [idParam], responses: { '200': json({ type: 'boolean' }), ...errors } }) };
  }
  if (!readOnly) {
    paths[`${base}/bulk`] = {
      post: op('Create rows (all or nothing)', { operationId: `${name}-bulkCreate`, requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: ref(`${name}Input`) } } } }, responses: { '200': json({ type: 'array', items: { type: 'string' } }), ...errors } }),
      put: op('Update rows (all or nothing)', { operationId: `${name}-bulkUpdate`, requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: ref(`${name}Input`) } } } }, responses: { '200': json({ type: 'integer' }), ...errors } }),
      delete: op('Delete rows (all or nothing)', { operationId: `${name}-bulkDelete`, requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: {} } } } }, responses: { '200': json({ type: 'integer' }), ...errors } }),
    };
  }
  for (const r of t.relations) {
    const other = pdb.model.tables.find((x) => x.tn === r.rtn)!;
    const oname = safe(other._tn);
    if (r.type === 'hm') {
      const rel = encodeURIComponent(r.alias);
      paths[`${base}/has/${rel}`] = {
        get: op(`${t._tn} rows each with its ${other._tn} rows`, { operationId: `${name}-${safe(r.alias)}-has`, parameters: LIST_PARAMS.slice(0, 7), responses: { '200': json({ type: 'array', items: { allOf: [ref(name), { type: 'object', properties: { [`${r.alias}List`]: { type: 'array', items: { type: 'object' } } } }] } }), ...errors } }, other),
      };
    }
    if (r.type === 'bt') {
      paths[`${base}/belongs/${encodeURIComponent(r.alias)}`] = {
        get: op(`${t._tn} rows each with its ${other._tn}`, { operationId: `${name}-${safe(r.alias)}-belongs`, parameters: LIST_PARAMS.slice(0, 7), responses: { '200': json({ type: 'array', items: { allOf: [ref(name), { type: 'object', properties: { [`${r.alias}Read`]: { type: ['object', 'null'] } } }] } }), ...errors } }, other),
      };
    }
    if (r.type === 'hm' && t.pks.length) {
      const rel = encodeURIComponent(r.alias);
      const childWritable = other.type !== 'view' && other.pks.length > 0;
      const childId = { name: 'childId', in: 'path', required: true, description: `Primary key of the ${other._tn} row; composite keys joined by ___`, schema: { type: 'string' } };
      const body = { required: true, content: { 'application/json': { schema: ref(`${oname}Input`) } } };
      paths[`${base}/{id}/${rel}`] = {
        get: op(`${other._tn} rows of one ${t._tn}`, { operationId: `${name}-${safe(r.alias)}-children`, parameters: [idParam, ...LIST_PARAMS.slice(0, 5)], responses: { '200': json({ type: 'array', items: ref(oname) }), ...errors } }, other),
        ...(childWritable ? { post: op(`Create a row in ${other._tn} for one row of ${t._tn} (its foreign key set)`, { operationId: `${name}-${safe(r.alias)}-createChild`, parameters: [idParam], requestBody: body, responses: { '200': json(ref(oname)), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }, other) } : {}),
      };
      if (other.pks.length) {
        paths[`${base}/{id}/${rel}/{childId}`] = {
          get: op(`One ${other._tn} row of one ${t._tn}`, { operationId: `${name}-${safe(r.alias)}-readChild`, parameters: [idParam, childId], responses: { '200': json(ref(oname)), ...errors } }, other),
          ...(childWritable ? {
            put: op(`Update one ${other._tn} row of one ${t._tn}`, { operationId: `${name}-${safe(r.alias)}-updateChild`, parameters: [idParam, childId], requestBody: body, responses: { '200': json(ref(oname)), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }, other),
            delete: op(`Delete one ${other._tn} row of one ${t._tn}`, { operationId: `${name}-${safe(r.alias)}-deleteChild`, parameters: [idParam, childId], responses: { '200': json({ type: 'integer' }), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }, other),
          } : {}),
        };
      }
    }
    if (r.type === 'mm' && t.pks.length) {
      const targetId = { name: 'targetId', in: 'path', required: true, schema: { type: 'string' } };
      paths[`${base}/{id}/mm/${encodeURIComponent(r.alias)}/{targetId}`] = {
        post: op(`Link a ${other._tn}`, { operationId: `${name}-${safe(r.alias)}-link`, parameters: [idParam, targetId], responses: { '200': json({ type: 'object' }), '409': { $ref: '#/components/responses/Conflict' }, ...errors } }, other),
        delete: op(`Unlink a ${other._tn}`, { operationId: `${name}-${safe(r.alias)}-unlink`, parameters: [idParam, targetId], responses: { '200': json({ type: 'object' }), ...errors } }, other),
      };
      paths[`${base}/m2mNotChildren/${encodeURIComponent(r.alias)}/{id}`] = {
        get: op(`${other._tn} rows not linked yet`, { operationId: `${name}-${safe(r.alias)}-notChildren`, parameters: [idParam, ...LIST_PARAMS.slice(0, 3)], responses: { '200': json({ type: 'object', properties: { list: { type: 'array', items: { type: 'object' } }, info: { type: 'object', properties: { count: { type: 'integer' } } } } }), ...errors } }, other),
      };
    }
  }
  return paths;
}

export function buildOpenApi(opts: { projectId: string; title: string; version: string; pdb: ProjectDb; serverUrl: string }): Json {
  const { pdb } = opts;
  const schemas: Record<string, Json> = {};
  let paths: Record<string, Json> = {};
  const msg = { type: 'object', properties: { msg: { type: 'string' } }, required: ['msg'] };
  for (const t of pdb.model.tables) {
    const name = safe(t._tn);
    const props: Record<string, Json> = Object.fromEntries(t.columns.map((c) => [c._cn, columnSchema(c)]));
    // Virtual columns: computed by the server, never written.
    for (const c of virtualColumns(t)) props[c._cn] = { ...columnSchema(c), readOnly: true, description: `${c.uidt} (computed)` };
    schemas[name] = { type: 'object', properties: props };
    schemas[`${name}Input`] = {
      type: 'object',
      properties: Object.fromEntries(t.columns.filter((c) => !c.ai).map((c) => [c._cn, columnSchema(c)])),
      required: t.columns.filter((c) => !c.nullable && !c.ai && c.default === null).map((c) => c._cn),
      additionalProperties: false,
    };
    paths = { ...paths, ...tablePaths(t, pdb) };
  }
  const response = (description: string) => ({ description, content: { 'application/json': { schema: msg } } });
  return {
    openapi: '3.1.0',
    info: { title: `${opts.title} (${pdb.dbAlias})`, version: opts.version, description: 'Generated by Tablo from the database schema.' },
    servers: [{ url: opts.serverUrl }],
    security: [{ xcAuth: [] }, { xcToken: [] }, { bearer: [] }],
    tags: pdb.model.tables.map((t) => ({ name: t._tn, description: t.type === 'view' ? 'SQL view (read-only)' : `Table ${t.tn}` })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        xcAuth: { type: 'apiKey', in: 'header', name: 'xc-auth', description: 'Session token of a signed-in user' },
        xcToken: { type: 'apiKey', in: 'header', name: 'xc-token', description: 'API token' },
        bearer: { type: 'http', scheme: 'bearer', description: 'API token as a bearer token' },
      },
      responses: {
        BadRequest: response('Bad input: unparsable filter, wrong type, unknown column'),
        Unauthorized: response('Not signed in or a bad token'),
        Forbidden: response('Not allowed'),
        NotFound: response('Unknown table or row'),
        Conflict: response('Unique or foreign-key violation'),
        Timeout: response('The statement took too long'),
      },
    },
  };
}
