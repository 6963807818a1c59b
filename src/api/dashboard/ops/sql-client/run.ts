/**
 * rawSqlRun `{ sql, runId, timeoutMs?, explain? }`: the SQL Client's run. The text is split into
 * statements (strings, comments and dollar quotes respected), each runs in turn on a connection of
 * its own under the time limit, enforced by the database, and gets its own result: columns with
 * their types, rows (as arrays), row count, rows affected, time taken, or the database's error with
 * its position. The first failing statement ends the run. A statement that changes the schema makes
 * the server read the model again (`schemaChanged`). `explain` asks the query plan of each
 * statement instead. Owners and creators only; the run is kept in the user's history.
 * rawSqlCancel `{ runId }` stops the statement running in the database.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../../op';
import { parseArgs } from '../../op';
import { LIMITS } from '../../../../config/limits';
import { badRequest, conflict, notFound, unavailable } from '../../../../lib/errors';
import { changesSchema, openRawSession, RawSqlError, splitStatements, stopSqliteRunners, type RawColumn } from '../../../../sql/raw/open-session';
import type { Engine } from '../../../../sql/dialect';
import { sqlClientRepo, type RunStatus } from '../../../../meta/sql-client-repo';
import { endRun, findRun, startRun, type ActiveRun } from './runs';

const RunId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, _ or -');

const Args = z.object({
  sql: z.string().max(LIMITS.rawSqlMaxLength),
  runId: RunId,
  timeoutMs: z.number().int().min(100).max(LIMITS.sqlClientMaxTimeoutMs).optional(),
  explain: z.boolean().optional(),
});

/** One statement's outcome; offsets are in the text sent. */
export interface StatementResult {
  sql: string;
  start: number;
  end: number;
  columns: RawColumn[];
  rows: unknown[][];
  rowCount: number;
  affected: number;
  truncated: boolean;
  ms: number;
  error?: { msg: string; kind: string; position?: number; line?: number; code?: string };
}

const EXPLAIN: Partial<Record<Engine, string>> = { pg: 'EXPLAIN ', mysql: 'EXPLAIN ', sqlite: 'EXPLAIN QUERY PLAN ' };

/** Who the history belongs to. */
export const historyOwner = (call: OpCall) => call.actor.userId ?? call.actor.kind;

const closersAdded = new WeakSet<object>();

export const rawSqlRun: DashboardOp = {
  name: 'rawSqlRun',
  access: 'projectAdmin',
  async run(call) {
    const { ctx, projectId, dbAlias, env, args } = call;
    const a = parseArgs(Args, args);
    const pdb = await ctx.projects.get(projectId, dbAlias, env);
    const engine = pdb.db.config.client;
    const statements = splitStatements(engine, a.sql);
    if (!statements.length) throw badRequest('There is no statement to run');
    const prefix = a.explain ? EXPLAIN[engine] : '';
    if (prefix === undefined) throw badRequest('The query plan is not available for this database');
    if (!closersAdded.has(ctx)) {
      closersAdded.add(ctx);
      ctx.closers.push(stopSqliteRunners);
    }
    const active: ActiveRun = { projectId, dbAlias, cancelled: false, session: null };
    if (!startRun(a.runId, active)) throw conflict(`A run with id '${a.runId}' is already running`);
    const timeoutMs = a.timeoutMs ?? LIMITS.sqlClientDefaultTimeoutMs;
    const results: StatementResult[] = [];
    let status: RunStatus = 'ok';
    let schemaChanged = false;
    const t0 = performance.now();
    try {
      try {
        active.session = await openRawSession(pdb.db);
      } catch (e) {
        throw unavailable(e instanceof Error ? e.message : String(e));
      }
      for (const st of statements) {
        const started = performance.now();
        const base = { sql: st.sql, start: st.start, end: st.end, columns: [], rows: [], rowCount: 0, affected: 0, truncated: false };
        if (active.cancelled) {
          results.push({ ...base, ms: 0, error: { msg: 'The statement was cancelled', kind: 'cancelled' } });
          status = 'cancelled';
          break;
        }
        try {
          const r = await active.session.run(prefix + st.sql, timeoutMs, LIMITS.sqlClientMaxRows);
          results.push({ ...base, ...r, ms: Math.round((performance.now() - started) * 10) / 10 });
          if (!prefix && changesSchema(st.sql)) schemaChanged = true;
        } catch (e) {
          if (!(e instanceof RawSqlError)) throw e;
          const position = e.position === undefined ? undefined : Math.max(0, e.position - prefix.length);
          results.push({ ...base, ms: Math.round((performance.now() - started) * 10) / 10, error: { msg: e.message, kind: e.kind, position, line: e.line, code: e.code } });
          status = e.kind === 'cancelled' || e.kind === 'timeout' ? e.kind : 'error';
          break;
        }
      }
    } finally {
      endRun(a.runId);
      await active.session?.close().catch(() => {});
    }
    // The schema changed under the model: read it again so the tree and the APIs see it.
    if (schemaChanged) await ctx.projects.resync(projectId, dbAlias, true);
    const durationMs = performance.now() - t0;
    await sqlClientRepo(ctx.meta).addHistory(projectId, dbAlias, historyOwner(call), { sql: a.sql, status, statements: statements.length, durationMs });
    return { runId: a.runId, engine, connectionId: active.session?.connectionId ?? null, results, skipped: statements.length - results.length, schemaChanged, ms: Math.round(durationMs) };
  },
};

export const rawSqlCancel: DashboardOp = {
  name: 'rawSqlCancel',
  access: 'projectAdmin',
  async run({ projectId, dbAlias, args }) {
    const { runId } = parseArgs(z.object({ runId: RunId }), args);
    const run = findRun(runId);
    if (!run || run.projectId !== projectId || run.dbAlias !== dbAlias) throw notFound(`No run '${runId}' is running`);
    run.cancelled = true;
    try {
      await run.session?.cancel();
    } catch (e) {
      if (e instanceof RawSqlError) throw badRequest(e.message);
      throw e;
    }
    return { cancelled: true, connectionId: run.session?.connectionId ?? null };
  },
};
