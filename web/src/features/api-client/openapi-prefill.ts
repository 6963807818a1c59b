/**
 * Requests prefilled from the project's OpenAPI document: operations grouped by table (their tag),
 * each giving a method, a URL (path parameters as `{{name}}` variables), its query parameters
 * (disabled until the user turns them on) and an example body made from the input schema.
 */
import type { ApiRequest, KeyValue, Method } from './request-model';
import { t } from '../../i18n';

interface OpenApiDoc {
  paths: Record<string, Record<string, { tags?: string[]; summary?: string; parameters?: { name: string; in: string; $ref?: string }[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>;
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
        summary: op.summary ?? `${method} ${path}`,
        method,
        path,
        // Path parameters become variables the user fills in the environment (or edits in the URL).
        request: { method, url: path.replace(/\{(\w+)\}/g, '{{$1}}'), params, headers: [], body },
      });
    }
  }
  return out;
}
