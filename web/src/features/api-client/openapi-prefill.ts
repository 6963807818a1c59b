/**
 * Requests prefilled from the project's OpenAPI document: operations grouped by table (their tag),
 * each giving a method, a URL (path parameters as `{{name}}` variables), its query parameters
 * (disabled until the user turns them on) and an example body made from the input schema.
 */
import type { ApiRequest, KeyValue, Method } from './request-model';
import { t, type MessageKey } from '../../i18n';

/** What the server says an operation does, as data (its kind and tables), to be said in the user's language. */
interface SummaryParts {
  kind: string;
  table: string;
  other?: string;
  column?: string;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { tags?: string[]; summary?: string; 'x-tablo-summary'?: SummaryParts; parameters?: { name: string; in: string; $ref?: string }[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, { name: string; in: string }> };
}

/** One operation of the document. */
export interface Operation {
  table: string;
  summary: string;
  method: Method;
  path: string;
  request: Omit<ApiRequest, 'auth'>;
}

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; examples?: unknown[]; format?: string; readOnly?: boolean };

function resolve(doc: OpenApiDoc, s: Schema | undefined): Schema | undefined {
  if (s?.$ref) return resolve(doc, doc.components?.schemas?.[s.$ref.split('/').pop()!] as Schema);
  return s;
}

/**
 * An example value of a schema that the API accepts as it is: the schema's own example (dates and
 * times), 0, '', false, dates as today, an empty object for any JSON, objects with every property.
 */
export function exampleOf(doc: OpenApiDoc, schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (!s || depth > 4) return null;
  if (s.enum?.length) return s.enum[0];
  if (s.examples?.length) return s.examples[0];
  // No type at all: any JSON value ('' would not be JSON).
  if (s.type === undefined && !s.properties && !s.items) return {};
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(s.properties ?? {})) if (!resolve(doc, v)?.readOnly) out[k] = exampleOf(doc, v, depth + 1);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 0;
  if (type === 'boolean') return false;
  if (s.format === 'date') return new Date().toISOString().slice(0, 10);
  return '';
}

/** The message of each kind of operation the server names in `x-tablo-summary`. */
const SUMMARY_KEYS: Record<string, MessageKey> = {
  list: 'tools.api.op.list', create: 'tools.api.op.create', findOne: 'tools.api.op.findOne', count: 'tools.api.op.count',
  groupby: 'tools.api.op.groupby', groupbyColumn: 'tools.api.op.groupbyColumn', aggregate: 'tools.api.op.aggregate',
  distinct: 'tools.api.op.distinct', distribute: 'tools.api.op.distribute', exportCsv: 'tools.api.op.exportCsv',
  exportXlsx: 'tools.api.op.exportXlsx', read: 'tools.api.op.read', update: 'tools.api.op.update', delete: 'tools.api.op.delete',
  exists: 'tools.api.op.exists', bulkCreate: 'tools.api.op.bulkCreate', bulkUpdate: 'tools.api.op.bulkUpdate',
  bulkDelete: 'tools.api.op.bulkDelete', has: 'tools.api.op.has', belongs: 'tools.api.op.belongs', children: 'tools.api.op.children',
  createChild: 'tools.api.op.createChild', readChild: 'tools.api.op.readChild', updateChild: 'tools.api.op.updateChild',
  deleteChild: 'tools.api.op.deleteChild', link: 'tools.api.op.link', unlink: 'tools.api.op.unlink',
  notChildren: 'tools.api.op.notChildren', upload: 'tools.api.op.upload', file: 'tools.api.op.file',
};

/** An operation's summary in the user's language when the server named its kind, else the document's own. */
function summaryOf(op: { summary?: string; 'x-tablo-summary'?: SummaryParts }, fallback: string): string {
  const parts = op['x-tablo-summary'];
  const key = parts && SUMMARY_KEYS[parts.kind];
  if (!key) return op.summary ?? fallback;
  return t(key, { table: parts.table, other: parts.other ?? '', column: parts.column ?? '' });
}

/** Every operation of the document, by table, in document order. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [m, op] of Object.entries(ops)) {
      const method = m.toUpperCase() as Method;
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const params: KeyValue[] = [];
      for (const p of op.parameters ?? []) {
        const param = p.$ref ? doc.components?.parameters?.[p.$ref.split('/').pop()!] : p;
        if (param?.in === 'query') params.push({ name: param.name, value: '', enabled: false });
      }
      const schema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const body = schema ? JSON.stringify(exampleOf(doc, schema), null, 2) : '';
      out.push({
        table: op.tags?.[0] ?? t('tools.api.otherGroup'),
        summary: summaryOf(op, `${method} ${path}`),
        method,
        path,
        // Path parameters become variables the user fills in the environment (or edits in the URL).
        request: { method, url: path.replace(/\{(\w+)\}/g, '{{$1}}'), params, headers: [], body },
      });
    }
  }
  return out;
}
