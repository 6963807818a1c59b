/**
 * rawSqlRun `{ sql, runId, timeoutMs?, explain? }`: the SQL Client's run. The text is split into
 * statements (strings, comments and dollar quotes respected), each runs in turn on a connection of
 * its own under the time limit, enforced by the database, and gets its own result: columns with
 * their types, rows (as arrays), row count, rows affected, time taken, or the database's error with
 * its position. The first failing statement ends the run. A statement that changes the schema makes
 * the server read the model again (`schemaChanged`) and is written to the audit log. `explain` asks the query plan of each
 * statement instead. Each result carries its first rows; the rest are read page by page with
 * rawSqlRows while the last statement's rows may still be arriving from the database. Owners and
 * creators only; the run is kept in the user's history.
 * rawSqlCancel `{ runId }` stops the statement running in the database: owners (and the Super
 * Admin) any run of the project, creators only the runs they started.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../../op';
import { parseArgs } from '../../op';
import { LIMITS } from '../../../../config/limits';
import { badRequest, conflict, forbidden, notFound, unavailable } from '../../../../lib/errors';
import { changesData, changesSchema, openRawSession, RawSqlError, reachesOtherFiles, splitStatements, stopSqliteRunners, type RawColumn, type RawStream } from '../../../../sql/raw/open-session';
import type { Engine } from '../../../../sql/dialect';
import { runStamp, sqlClientRepo, type RunStatus } from '../../../../meta/sql-client-repo';
import { endRun, findRun, startRun, type ActiveRun } from './runs';
import { isProjectOwner } from '../../../../data/access';
import { FIRST_PAGE, keepResult } from './buffers';
import { ownerKey } from '../../../../lib/actor';
import type { StatementResult } from '../../../../../common/sql-client';
import { auditRepo } from '../../../../meta/audit-repo';
import { rowsChangedBySql } from '../../../shared/sql-write-events';

const RunId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, _ or -');

const Args = z.object({
  sql: z.string().max(LIMITS.rawSqlMaxLength),
  runId: RunId,
  timeoutMs: z.number().int().min(100).max(LIMITS.sqlClientMaxTimeoutMs).optional(),
  explain: z.boolean().optional(),
});


/** How much of a schema-changing statement the audit log keeps (on one line). */
const AUDIT_SQL_MAX = 300;
const auditText = (sql: string) => {
  const line = sql.replace(/\s+/g, ' ').trim();
  return line.length > AUDIT_SQL_MAX ? `${line.slice(0, AUDIT_SQL_MAX)}…` : line;
};

const EXPLAIN: Partial<Record<Engine, string>> = { pg: 'EXPLAIN ', mysql: 'EXPLAIN ', sqlite: 'EXPLAIN QUERY PLAN ' };

/** Who the history belongs to. */
export const historyOwner = (call: OpCall) => ownerKey(call.actor);

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
    if (statements.some((st) => reachesOtherFiles(engine, st.sql))) throw forbidden('The SQL Client cannot attach, detach or write other database files');
    const prefix = a.explain ? EXPLAIN[engine] : '';
    if (prefix === undefined) throw badRequest('The query plan is not available for this database');
    if (!closersAdded.has(ctx)) {
      closersAdded.add(ctx);
      ctx.closers.push(stopSqliteRunners);
    }
    const owner = historyOwner(call);
    const active: ActiveRun = { projectId, dbAlias, startedBy: owner, cancelled: false, session: null };
    if (!startRun(a.runId, active)) throw conflict(`A run with id '${a.runId}' is already running`);
    const timeoutMs = a.timeoutMs ?? LIMITS.sqlClientDefaultTimeoutMs;
    const results: StatementResult[] = [];
    let status: RunStatus = 'ok';
    let schemaChanged = false;
    /** The statements that changed the schema, for the audit log (as the dashboard's schema changes are). */
    const schemaStatements: string[] = [];
    /** The statements that may have changed rows, for the audit log; the open grids read their rows again after them. */
    const dataStatements: string[] = [];
    /** The last statement's rows, when they are still being read as the run answers. */
    let streaming: RawStream | null = null;
    const t0 = performance.now();
    const ranAt = runStamp();
    const statusOf = (e: RawSqlError): RunStatus => (e.kind === 'cancelled' || e.kind === 'timeout' ? e.kind : 'error');
    const finish = async () => {
      endRun(a.runId);
      await active.session?.close().catch(() => {});
      await sqlClientRepo(ctx.meta).addHistory(projectId, dbAlias, owner, { sql: a.sql, status, statements: statements.length, durationMs: performance.now() - t0 }, ranAt);
    };
    try {
      try {
        active.session = await openRawSession(pdb.db);
      } catch (e) {
        throw unavailable(e instanceof Error ? e.message : String(e));
      }
      for (let i = 0; i < statements.length; i++) {
        const st = statements[i]!;
        const started = performance.now();
        const ms = () => Math.round((performance.now() - started) * 10) / 10;
        const base = { sql: st.sql, start: st.start, end: st.end, columns: [], rows: [], rowCount: 0, affected: 0, truncated: false, complete: true };
        if (active.cancelled) {
          results.push({ ...base, ms: 0, error: { msg: 'The statement was cancelled', kind: 'cancelled' } });
          status = 'cancelled';
          break;
        }
        try {
          const s = await active.session.run(prefix + st.sql, timeoutMs, LIMITS.sqlClientMaxRows);
          // Every statement but the last is read to its end before the next one starts.
          if (i < statements.length - 1) await s.done;
          else if (!s.finished) streaming = s;
          const resultId = s.rows.length > FIRST_PAGE || !s.finished ? keepResult(`${a.runId}.${i}`, { projectId, dbAlias, owner, stream: s }) : undefined;
          results.push({
            ...base, columns: s.columns, rows: s.rows.slice(0, FIRST_PAGE), rowCount: s.rowCount, affected: s.affected,
            truncated: s.truncated, complete: s.finished && !resultId, resultId, ms: ms(),
          });
          if (!prefix && changesSchema(st.sql)) {
            schemaChanged = true;
            schemaStatements.push(st.sql);
          } else if (!prefix && (changesData(st.sql) || s.affected > 0)) dataStatements.push(st.sql);
        } catch (e) {
          if (!(e instanceof RawSqlError)) throw e;
          const position = e.position === undefined ? undefined : Math.max(0, e.position - prefix.length);
          results.push({ ...base, ms: ms(), error: { msg: e.message, kind: e.kind, position, line: e.line, code: e.code } });
          status = statusOf(e);
          break;
        }
      }
    } catch (e) {
      status = 'error';
      await finish();
      throw e;
    }
    // Rows changed under the open grids (which rows is not known): they read again what they show, and the audit log says who ran what.
    if (dataStatements.length) {
      await auditRepo(ctx.meta).writeMany(dataStatements.map((sql) => ({ op_type: 'DATA', project_id: projectId, db_alias: dbAlias, description: `SQL Client: ${auditText(sql)}`, user_email: call.actor.email ?? null })));
      rowsChangedBySql({ meta: ctx.meta, projectId, dbAlias });
    }
    // The schema changed under the model: read it again so the tree and the APIs see it, and say who changed it.
    if (schemaChanged) {
      await auditRepo(ctx.meta).writeMany(schemaStatements.map((sql) => ({ op_type: 'SCHEMA', project_id: projectId, db_alias: dbAlias, description: `SQL Client: ${auditText(sql)}`, user_email: call.actor.email ?? null })));
      await ctx.projects.resync(projectId, dbAlias, true);
    }
    if (streaming) {
      // The connection stays the run's (and cancellable) until the last rows are read.
      const s: RawStream = streaming;
      void s.done.catch((e: RawSqlError) => (status = statusOf(e))).finally(() => finish().catch((e) => ctx.log.warn(`SQL Client run ${a.runId}: ${e}`)));
    } else await finish();
    const connectionId = active.session?.connectionId ?? null;
    return { runId: a.runId, engine, connectionId, results, skipped: statements.length - results.length, schemaChanged, ms: Math.round(performance.now() - t0) };
  },
};

export const rawSqlCancel: DashboardOp = {
  name: 'rawSqlCancel',
  access: 'projectAdmin',
  async run(call) {
    const { projectId, dbAlias, args } = call;
    const { runId } = parseArgs(z.object({ runId: RunId }), args);
    const run = findRun(runId);
    if (!run || run.projectId !== projectId || run.dbAlias !== dbAlias) throw notFound(`No run '${runId}' is running`);
    if (run.startedBy !== historyOwner(call) && !isProjectOwner(call.actor, call.projectRoles)) {
      throw forbidden('Creators can cancel only the statements they started');
    }
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
