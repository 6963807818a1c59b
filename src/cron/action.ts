/**
 * What a cron job does: an HTTP call, or SQL statements on one of the project's databases run
 * as raw SQL (sql-statements.ts: jobs are made by owners and creators only, who may run raw SQL
 * anyway). SQL that changes the schema makes the model be read again, as the SQL Client does.
 * Nothing stored is evaluated as code.
 */
import { z } from 'zod';
import type { AppContext } from '../context';
import { LIMITS } from '../config/limits';
import { headerProblem } from '../lib/http-headers';
import { badRequest } from '../lib/errors';
import { headersToSave, maskHeaders } from '../lib/masked-secrets';
import { changesSchema, reachesOtherFiles, splitStatements } from '../sql/raw/split';
import { guardedFetch, RefusedAddress } from '../api/clients/guarded-fetch';
import { openStatementRunner } from './sql-statements';

const httpUrl = z
  .string()
  .trim()
  .min(1, 'The URL is required')
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'Not an http(s) URL');

export const CronActionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('url'),
    method: z.preprocess((m) => (typeof m === 'string' ? m.toUpperCase() : m), z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])).default('POST'),
    url: httpUrl,
    // Checked on save by checkActionHeaders, once values left masked are the stored ones again.
    headers: z.record(z.string().min(1).max(200), z.string().max(4000)).default({}),
    body: z.string().max(LIMITS.hookTemplateMax).optional(),
  }),
  z.object({ type: z.literal('sql'), sql: z.string().trim().min(1, 'The SQL statement is empty').max(LIMITS.rawSqlMaxLength), dbAlias: z.string().min(1).default('db') }),
]);

export type CronAction = z.infer<typeof CronActionSchema>;

/** 400 naming the first header of an HTTP action that no request can carry (see http-headers.ts). */
export function checkActionHeaders(a: CronAction): void {
  if (a.type !== 'url') return;
  const problem = Object.entries(a.headers).map(([k, v]) => headerProblem(k, v)).find(Boolean);
  if (problem) throw badRequest(problem);
}

/** An action being saved: header values sent back masked keep those of `stored` (see headersToSave). */
export function actionToSave(a: CronAction, stored: CronAction | null): CronAction {
  if (a.type !== 'url') return a;
  return { ...a, headers: headersToSave(a.headers, stored?.type === 'url' ? stored.headers : {}) };
}

/** The action as lists show it: an HTTP action's header values masked. */
export const maskedAction = (a: CronAction): CronAction => (a.type === 'url' ? { ...a, headers: maskHeaders(a.headers ?? {}) } : a);

/** Why a job's SQL is refused: on SQLite it would reach the metadata store or another project's file. */
export const OTHER_FILES_MSG = 'The SQL of a cron job cannot attach, detach or write other database files';

/** True when one statement of a job's SQL reaches another database file (see reachesOtherFiles). */
export const otherFilesStatement = (engine: Parameters<typeof splitStatements>[0], sql: string) => splitStatements(engine, sql).some((st) => reachesOtherFiles(engine, st.sql));

export interface ActionResult {
  ok: boolean;
  result: string | null;
  error: string | null;
}

const cut = (s: string) => (s.length > LIMITS.automationResultMax ? `${s.slice(0, LIMITS.automationResultMax)}…` : s);

/** Runs the action once; never throws. `signal` (Tablo stopping) stops a SQL statement where it can. */
export async function runAction(ctx: AppContext, projectId: string, a: CronAction, signal?: AbortSignal): Promise<ActionResult> {
  try {
    if (a.type === 'url') {
      const timeout = AbortSignal.timeout(LIMITS.cronHttpTimeoutMs);
      let res: Response;
      try {
        const headers: Record<string, string> = { 'user-agent': 'Tablo-Cron', ...a.headers };
        const body = a.method === 'GET' ? undefined : a.body ?? '';
        // A body goes out typed unless a header names its type: JSON when it looks like JSON, else text.
        if (body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = looksJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
        // The answer is kept in the job's log: the server may not fetch from its own network for it (SSRF).
        res = await guardedFetch(a.url, { method: a.method, headers, body, signal: timeout }, ctx.config.apiClientAllowPrivate);
      } catch (e) {
        if (e instanceof RefusedAddress) return { ok: false, result: null, error: e.message };
        if (timeout.aborted) return { ok: false, result: null, error: `No answer from ${a.url} within ${LIMITS.cronHttpTimeoutMs / 1000} s` };
        return { ok: false, result: null, error: `Could not reach ${a.url}: ${(e as Error).message}` };
      }
      const text = cut(await res.text().catch(() => ''));
      const summary = `HTTP ${res.status}${text ? `: ${text}` : ''}`;
      return res.ok ? { ok: true, result: summary, error: null } : { ok: false, result: null, error: `The server answered ${summary}` };
    }
    const pdb = await ctx.projects.get(projectId, a.dbAlias);
    // Every statement runs, in order (a driver given several at once may run only the first);
    // the first that fails ends the run.
    // Checked again here: a job may come from an imported archive.
    if (otherFilesStatement(pdb.db.config.client, a.sql)) return { ok: false, result: null, error: OTHER_FILES_MSG };
    const statements = splitStatements(pdb.db.config.client, a.sql).map((st) => st.sql);
    if (!statements.length) return { ok: false, result: null, error: 'The SQL holds no statement' };
    const runner = await openStatementRunner(ctx, pdb.db, signal);
    const results: string[] = [];
    let schemaChanged = false;
    try {
      for (const [i, sql] of statements.entries()) {
        try {
          results.push(await runner.run(sql));
          schemaChanged ||= changesSchema(sql);
        } catch (e) {
          const where = statements.length > 1 ? ` in statement ${i + 1}` : '';
          return { ok: false, result: null, error: cut(`SQL error${where}: ${(e as Error).message}`) };
        }
      }
    } finally {
      await runner.close();
      // As after the SQL Client: the model is read again, so the tree and the APIs see the change
      // (also when a later statement failed after one that changed the schema).
      if (schemaChanged) await reloadModel(ctx, projectId, a.dbAlias);
    }
    return { ok: true, result: cut(results.length === 1 ? results[0]! : results.map((r, i) => `${i + 1}: ${r}`).join('\n')), error: null };
  } catch (e) {
    return { ok: false, result: null, error: cut(`${a.type === 'sql' ? 'SQL error' : 'Error'}: ${(e as Error).message}`) };
  }
}

const looksJson = (t: string) => /^\s*[[{]/.test(t);

/** Reads a project database's schema again after a job changed it; a failed read is logged (the next use reads it afresh). */
async function reloadModel(ctx: AppContext, projectId: string, dbAlias: string): Promise<void> {
  try {
    await ctx.projects.resync(projectId, dbAlias);
  } catch (e) {
    ctx.log.warn(`cron job SQL changed the schema of project ${projectId} (${dbAlias}): ${(e as Error).message}`);
  }
}
