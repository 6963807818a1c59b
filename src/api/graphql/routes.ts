/**
 * `POST|GET /nc/{projectId}/v1/graphql`: graphql-yoga over a schema built per project database and
 * cached until its schema changes (registry onChange: schema sync, stop, env change; and a new
 * model object). Same authentication as REST. Every error, including a refused caller or an
 * unknown project, answers the standard `{ errors: [{ message, extensions: { code } }] }` with
 * the AppError code; anything unexpected is masked, never a stack trace.
 */
import { Elysia } from 'elysia';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/log';
import type { SchemaModel } from '../../schema/model';
import { cachedDataContext, dataContext } from '../rest/context';
import type { DataContext } from '../../data/data-context';
import { isUnrestricted } from '../../data/access';
import { readableModel } from '../../data/read-scope';
import { readBodyText } from '../../http/body';
import { buildGraphqlSchema, type GqlContext } from './schema-builder';
import { costError, depthLimitRule, documentBudgetError, operationCost } from './limits';
import { fastGraphql, INTROSPECTION, type FastGraphql, type FastResult } from './fast-path';

/** The rules of a project database as text, worked out once per rules object (the cache hands out a new one every second). */
const rulesTexts = new WeakMap<object, string>();
function rulesText(acl: DataContext['acl']): string {
  if (!acl) return '';
  let text = rulesTexts.get(acl);
  if (text === undefined) rulesTexts.set(acl, (text = JSON.stringify([...acl])));
  return text;
}

interface Cached {
  model: SchemaModel;
  yoga: YogaServerInstance<Record<string, unknown>, GqlContext>;
  fast: FastGraphql;
}

/**
 * AppError (also wrapped by GraphQL) -> an error with its stable code; anything else is masked
 * as 'Unexpected error.' (code INTERNAL) and, given a logger, logged with its details.
 */
export function maskError(error: unknown, log?: Logger): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof AppError) {
    return new GraphQLError(original.message, { nodes: error instanceof GraphQLError ? error.nodes : undefined, path: error instanceof GraphQLError ? error.path : undefined, extensions: { code: original.code } });
  }
  if (error instanceof GraphQLError && (!original || original instanceof GraphQLError)) {
    // Parse, validation and argument errors are the caller's: BAD_REQUEST unless coded already.
    return error.extensions?.code ? error : new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: { ...error.extensions, code: 'BAD_REQUEST' } });
  }
  log?.error('GraphQL: unexpected error', original ?? error);
  return new GraphQLError('Unexpected error.', { nodes: error instanceof GraphQLError ? error.nodes : undefined, path: error instanceof GraphQLError ? error.path : undefined, extensions: { code: 'INTERNAL' } });
}

/** Answers before GraphQL runs (refused caller, unknown or stopped project) in the GraphQL envelope. */
const envelope = (e: AppError, status = e.status) =>
  new Response(JSON.stringify({ errors: [{ message: e.message, extensions: { code: e.code } }] }), {
    status,
    headers: { 'content-type': 'application/json', ...e.headers },
  });

/** Codes graphql-yoga gives the caller's mistakes (syntax, validation, variables). */
const CALLER_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

/**
 * Gives yoga's own request errors (syntax, validation, variables) the API's code BAD_REQUEST.
 * note: changed in place, because yoga decides the HTTP status from the very error objects it
 * produced (and their extensions).
 */
const callerErrorCodes: Plugin<GqlContext> = {
  onResultProcess({ result }) {
    const r = result as { errors?: readonly unknown[] };
    if (Array.isArray(result) || !r || typeof r !== 'object' || !Array.isArray(r.errors)) return;
    for (const e of r.errors) {
      if (!(e instanceof GraphQLError) || !e.extensions) continue;
      const ext = e.extensions as Record<string, unknown>;
      if (CALLER_CODES.has(String(ext.code))) ext.code = 'BAD_REQUEST';
    }
  },
};

/**
 * The request parsers' failures as the caller's mistakes: a GET or form POST whose `variables` or
 * `extensions` is not JSON (yoga's bare JSON.parse threw, masked as INTERNAL) is BAD_REQUEST, and a
 * body of a type no parser reads answers 415 in the GraphQL envelope (yoga's had no body).
 */
const requestParseErrors: Plugin<GqlContext> = {
  onRequestParse({ requestParser, setRequestParser, endResponse }) {
    if (!requestParser) {
      endResponse(envelope(new AppError('BAD_REQUEST', 'Send the query as JSON (application/json), as application/graphql or in the URL of a GET'), 415));
      return;
    }
    setRequestParser(async (request) => {
      try {
        return await requestParser(request);
      } catch (e) {
        if (e instanceof GraphQLError) throw e;
        throw new GraphQLError("The 'variables' or 'extensions' parameter is not JSON", { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
      }
    });
  },
};

/**
 * Sizes the document with its fragments expanded (linear time) before any validation rule runs:
 * over the limits, validation is skipped and the document is refused with BAD_REQUEST.
 */
const documentBudgetPlugin: Plugin<GqlContext> = {
  onValidate({ params, setResult }) {
    const err = documentBudgetError(params.documentAST);
    if (err) setResult([err]);
  },
};

/** Refuses an operation whose cost, with its variables, is over the limit. */
const costLimitPlugin = (maxLimit: number): Plugin<GqlContext> => ({
  onExecute({ args, setResultAndStopExecution }) {
    const doc = args.document as DocumentNode;
    const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = args.operationName ? ops.find((o) => o.name?.value === args.operationName) : ops[0];
    if (!op) return;
    const err = costError(operationCost(doc, op, (args.variableValues ?? {}) as Record<string, unknown>, maxLimit));
    if (err) setResultAndStopExecution({ errors: [err] });
  },
});

/** `/nc/{projectId}/v1/graphql`, nothing else. */
const ENDPOINT = /^\/nc\/([\w-]+)\/v1\/graphql$/;

/** The project of a GraphQL endpoint's URL (no query string), else null. */
function endpointOf(url: string): { projectId: string; path: string } | null {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0 || url.includes('?', start)) return null;
  const path = url.slice(start);
  const m = ENDPOINT.exec(path);
  return m ? { projectId: m[1]!, path } : null;
}

/** URLs POSTed to lately, with their endpoint (null: not a GraphQL endpoint). */
const ENDPOINTS_MAX = 1_000;

/**
 * Every project's GraphQL endpoint: the Elysia module (`routes`), and `early`, a short road for
 * plain JSON POSTs taken before the router (see app.ts): it answers what the fast path answers for
 * a caller held in the caches, and hands back the request (rebuilt from the body it read) for the
 * routes to answer otherwise. Both share one schema cache.
 */
export function graphqlEndpoint(ctx: AppContext, opts: { logRequests: boolean; bodyLimitBytes: number }) {
  const cache = new Map<string, Cached>();
  const endpoints = new Map<string, { projectId: string; path: string } | null>();
  ctx.projects.onChange((projectId) => {
    for (const k of cache.keys()) if (k.startsWith(`${projectId}\u0000`)) cache.delete(k);
  });

  const yogaFor = (projectId: string, schema: GraphQLSchema) =>
    createYoga<Record<string, unknown>, GqlContext>({
      schema,
      graphqlEndpoint: `/nc/${projectId}/v1/graphql`,
      graphiql: false,
      landingPage: false,
      logging: false,
      maskedErrors: { maskError: (e) => maskError(e, ctx.log) },
      plugins: [
        requestParseErrors,
        documentBudgetPlugin,
        { onValidate: ({ addValidationRule }: { addValidationRule: (r: ReturnType<typeof depthLimitRule>) => void }) => addValidationRule(depthLimitRule()) },
        costLimitPlugin(ctx.config.queryLimitMax),
        callerErrorCodes,
      ],
    });

  /**
   * What a caller with rules introspects: the schema of the tables and columns their roles may read
   * (the whole schema named hidden ones), kept per roles and rules. Queries run on the whole schema,
   * where the data core refuses hidden columns naming them.
   */
  const cuts = new Map<string, { model: SchemaModel; rules: string; yoga: YogaServerInstance<Record<string, unknown>, GqlContext> }>();
  ctx.projects.onChange((projectId) => {
    for (const k of cuts.keys()) if (k.startsWith(`${projectId}\u0000`)) cuts.delete(k);
  });
  const cutFor = (projectId: string, dc: DataContext) => {
    const a = dc.actor;
    const key = `${projectId}\u0000${dc.pdb.env}\u0000${dc.pdb.dbAlias}\u0000${a.kind}|${a.previewAs ?? ''}|${a.roles.join(',')}`;
    const rules = rulesText(dc.acl);
    let c = cuts.get(key);
    if (!c || c.model !== dc.pdb.model || c.rules !== rules) {
      c = { model: dc.pdb.model, rules, yoga: yogaFor(projectId, buildGraphqlSchema(readableModel(dc), dc.pdb.db.dialect.engine)) };
      cuts.set(key, c);
    }
    return c.yoga;
  };

  /** The schema, yoga and fast path of the caller's project database, built when missing or stale. */
  const cachedFor = (projectId: string, dc: DataContext): Cached => {
    const key = `${projectId}\u0000${dc.pdb.env}\u0000${dc.pdb.dbAlias}`;
    let c = cache.get(key);
    if (!c || c.model !== dc.pdb.model) {
      const started = performance.now();
      const schema = buildGraphqlSchema(dc.pdb.model, dc.pdb.db.dialect.engine);
      c = { model: dc.pdb.model, yoga: yogaFor(projectId, schema), fast: fastGraphql(schema, ctx.config.queryLimitMax) };
      cache.set(key, c);
      ctx.log.info(`GraphQL schema built for ${projectId} (${dc.pdb.env}/${dc.pdb.dbAlias}, ${dc.pdb.model.tables.length} tables) in ${Math.round(performance.now() - started)} ms`);
    }
    return c;
  };

  /** A request with the body the fast path read, for whoever answers next. */
  const withBody = (request: Request, body: string) => new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });

  const handle = async (request: Request, projectId: string) => {
    let dc;
    try {
      dc = await dataContext(ctx, request, projectId);
    } catch (e) {
      if (e instanceof AppError) return envelope(e);
      throw e;
    }
    const c = cachedFor(projectId, dc);
    const fast = await c.fast.handle(request, dc);
    if (fast && 'response' in fast) return fast.response;
    // yoga answers whatever the fast path left, from the body it already read.
    const context: GqlContext = { dc, loaders: new Map() };
    let rest = fast ? withBody(request, fast.body) : request;
    let yoga = c.yoga;
    if (!isUnrestricted(dc.actor)) {
      // A caller with rules introspects only what they may read.
      let text = fast ? fast.body : request.method === 'GET' ? request.url : '';
      if (!fast && request.method === 'POST') rest = withBody(request, (text = await readBodyText(request, opts.bodyLimitBytes)));
      if (INTROSPECTION.test(text)) yoga = cutFor(projectId, dc);
    }
    return yoga.fetch(rest, context as never);
  };

  /**
   * The answer to a plain JSON POST of a caller held in the caches, or undefined: `routed` answers
   * the request as it is. What the fast path leaves goes to `routed` too, with the body it read.
   */
  const early = (request: Request, routed: (request: Request) => Promise<Response>): Promise<Response> | undefined => {
    if (request.method !== 'POST') return undefined;
    const url = request.url;
    let endpoint = endpoints.get(url);
    if (endpoint === undefined) {
      endpoint = endpointOf(url);
      if (endpoints.size >= ENDPOINTS_MAX) endpoints.delete(endpoints.keys().next().value!);
      endpoints.set(url, endpoint);
    }
    if (!endpoint) return undefined;
    // Bodies over the limit go through the routes, which refuse them with 413 (the same test as error-edge.ts).
    const length = request.headers.get('content-length');
    if (length !== null && Number(length) > opts.bodyLimitBytes) return undefined;
    const { projectId, path } = endpoint;
    const dc = cachedDataContext(ctx, request, projectId);
    if (!dc) return undefined;
    let c: Cached;
    try {
      c = cachedFor(projectId, dc);
    } catch {
      return undefined; // the routes answer with the error
    }
    return answerEarly(c, dc, request, routed, path);
  };

  const answerEarly = async (c: Cached, dc: DataContext, request: Request, routed: (request: Request) => Promise<Response>, path: string): Promise<Response> => {
    const t0 = opts.logRequests ? performance.now() : 0;
    let fast: FastResult;
    try {
      fast = await c.fast.handle(request, dc);
    } catch (e) {
      // A body over the limit or nested too deep: refused here, with `{msg}` (its body is used up,
      // so the routes could not read it again).
      if (e instanceof AppError) return new Response(JSON.stringify({ msg: e.message }), { status: e.status, headers: { 'content-type': 'application/json' } });
      return new Response(JSON.stringify({ msg: 'The request body could not be read' }), { status: 400, headers: { 'content-type': 'application/json' } });
    }
    if (!fast) return routed(request);
    if ('body' in fast) return routed(withBody(request, fast.body));
    if (opts.logRequests) ctx.log.info(`POST ${path} ${fast.response.status} ${(performance.now() - t0).toFixed(1)}ms`);
    return fast.response;
  };

  const routes = new Elysia({ name: 'graphql' }).all('/nc/:projectId/v1/graphql', ({ request, params }) => handle(request, params.projectId));
  return { routes, early };
}
