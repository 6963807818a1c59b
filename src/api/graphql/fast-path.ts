/**
 * A short road for the most common GraphQL call: a POST of JSON `{ query, variables?, operationName? }`
 * running a query operation. It skips graphql-yoga's request pipeline: each document is parsed and
 * validated once per schema (bounded cache), then run on the plain executor when it is plain
 * (plain-executor.ts), else as JavaScript compiled by graphql-jit, which costs about half of
 * graphql-js's interpreted execution. A body without variables is remembered with its operation.
 * routes.ts takes plain JSON POSTs here before the router. Whatever it does not
 * answer itself (other methods or media types, extensions, mutations, documents that do not parse
 * or validate, a cost over the limit, and any result holding an error) goes to yoga, which answers
 * as it always does; a query only reads, so running it again there changes nothing.
 */
import { execute, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { costError, depthLimitRule, documentBudgetError, operationCost } from './limits';
import type { GqlContext } from './relation-loaders';
import type { DataContext } from '../../data/data-context';
import { plainQuery } from './plain-executor';
import { jsonTooDeep, readBodyText } from '../../http/body';
import { LIMITS } from '../../config/limits';
import { badRequest } from '../../lib/errors';
import { isUnrestricted } from '../../data/access';

/** Text asking for the schema (GraphQL's introspection fields). */
export const INTROSPECTION = /__schema|__type\b/;

/** A valid query operation, ready to run. */
interface Prepared {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The cost when it cannot depend on variables (no variables declared). */
  cost?: number;
  run(dc: DataContext, variables: Record<string, unknown> | undefined): Promise<ExecutionResult> | ExecutionResult;
}

/** Prepared operations kept per schema. */
const DOCUMENTS_MAX = 1_000;
/** Longest body remembered with its operation. */
const BODY_REMEMBERED_MAX = 4_000;
/** yoga's request body limit, kept so that the same bodies are refused. */
const BODY_MAX = 25_000_000;
/** Accept headers for which yoga answers `application/json`. */
const JSON_ACCEPTS = new Set(['', '*/*', 'application/json']);

/** What the fast path gives back: its own answer, or the body it read, for yoga to answer. */
export type FastResult = { response: Response } | { body: string } | undefined;

/** The fast path of one schema. */
export interface FastGraphql {
  /** Answers `request` for the caller of `dc`, else returns the body it consumed (undefined: the request is untouched). */
  handle(request: Request, dc: DataContext): Promise<FastResult>;
}

/** What the resolvers of one request receive. */
const contextOf = (dc: DataContext): GqlContext => ({ dc, loaders: new Map() });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The response headers yoga's default CORS settings add for this request, or null when yoga must decide. */
function corsHeaders(request: Request): Record<string, string> | null {
  const h = request.headers;
  if (h.has('access-control-request-method') || h.has('access-control-request-headers')) return null;
  const origin = h.get('origin');
  return origin === null ? {} : { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Allow-Credentials': 'true' };
}

/** Builds the fast path over `schema`; `maxLimit` is the server's page maximum (cost limit). */
export function fastGraphql(schema: GraphQLSchema, maxLimit: number): FastGraphql {
  const rules: ValidationRule[] = [...specifiedRules, depthLimitRule()];
  const prepared = new Map<string, Prepared>();
  /** Operations by the exact body that asked for them, for bodies without variables. */
  const byBody = new Map<string, Prepared>();

  /** The prepared query operation, or null when yoga must answer (errors, mutations, subscriptions). */
  const prepare = (query: string, operationName: string | undefined): Prepared | null => {
    const key = operationName === undefined ? query : `${operationName}\u0000${query}`;
    const hit = prepared.get(key);
    if (hit) return hit;
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch {
      return null;
    }
    // Sized with its fragments expanded (linear) before validation, compilation or any cache:
    // yoga refuses what is over the limits with the same check.
    if (documentBudgetError(document)) return null;
    if (validate(schema, document, rules).length) return null;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation !== 'query') return null;
    const entry: Prepared = { document, operation, run: runnerOf(document, operation, operationName) };
    if (!operation.variableDefinitions?.length) entry.cost = operationCost(document, operation, {}, maxLimit);
    if (prepared.size >= DOCUMENTS_MAX) prepared.delete(prepared.keys().next().value!);
    prepared.set(key, entry);
    return entry;
  };

  /** Plain queries run on our own executor, the others as compiled code (or interpreted when they do not compile). */
  const runnerOf = (document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): Prepared['run'] => {
    const plain = plainQuery(schema, document, operation);
    if (plain) return (dc, variables) => plain.run(dc, variables);
    let compiled: CompiledQuery | ExecutionResult | undefined;
    try {
      compiled = compileQuery(schema, document, operationName);
    } catch {
      compiled = undefined;
    }
    return compiled && isCompiledQuery(compiled)
      ? (dc, variables) => compiled.query(undefined, contextOf(dc), variables ?? {})
      : (dc, variables) => execute({ schema, document, contextValue: contextOf(dc), variableValues: variables, operationName });
  };
  return {
    async handle(request, dc) {
      if (request.method !== 'POST') return undefined;
      const h = request.headers;
      const contentType = h.get('content-type');
      const type = contentType?.includes(',') ? contentType.split(',')[0] : contentType;
      if (type !== 'application/json' && !type?.startsWith('application/json;')) return undefined;
      const accept = h.get('accept');
      if (accept !== null && !JSON_ACCEPTS.has(accept.replace(/\s/g, '').toLowerCase())) return undefined;
      const cors = corsHeaders(request);
      if (!cors) return undefined;

      // Read with the byte limit (413 once passed, chunked bodies too); too deep JSON answers 400.
      const body = await readBodyText(request, LIMITS.bodyLimitBytes);
      if (jsonTooDeep(body)) throw badRequest(`The JSON body is nested deeper than ${LIMITS.jsonMaxDepth} levels`);
      const fallback = { body };
      // A caller with rules introspects the schema cut to their rights: yoga answers (routes.ts).
      if (!isUnrestricted(dc.actor) && INTROSPECTION.test(body)) return fallback;
      let op = byBody.get(body);
      let variables: Record<string, unknown> | undefined;
      if (!op) {
        if (body.length > BODY_MAX) return fallback;
        let params: unknown;
        try {
          params = JSON.parse(body);
        } catch {
          return fallback;
        }
        if (!isObject(params)) return fallback;
        const { query, operationName } = params;
        for (const k in params) if (params[k] != null && k !== 'query' && k !== 'variables' && k !== 'operationName') return fallback;
        if (typeof query !== 'string' || (params.variables != null && !isObject(params.variables)) || (operationName != null && typeof operationName !== 'string')) return fallback;
        variables = (params.variables ?? undefined) as Record<string, unknown> | undefined;

        op = prepare(query, operationName ?? undefined) ?? undefined;
        if (!op) return fallback;
        if (costError(op.cost ?? operationCost(op.document, op.operation, variables ?? {}, maxLimit))) return fallback;
        // A body without variables always asks the same: the next one like it skips the parsing and checks.
        if (variables === undefined && op.cost !== undefined && body.length <= BODY_REMEMBERED_MAX) {
          if (byBody.size >= DOCUMENTS_MAX) byBody.delete(byBody.keys().next().value!);
          byBody.set(body, op);
        }
      }

      let result: ExecutionResult;
      try {
        result = await op.run(dc, variables);
      } catch {
        return fallback;
      }
      if (result.errors?.length) return fallback;
      return { response: new Response(JSON.stringify(result), { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8', ...cors } }) };
    },
  };
}
