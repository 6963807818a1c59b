/**
 * What a cron job does: an HTTP call, or one SQL statement on one of the project's databases run
 * as raw SQL through the project's driver (jobs are made by owners and creators only, who may run
 * raw SQL anyway). Nothing stored is evaluated as code.
 */
import { z } from 'zod';
import type { AppContext } from '../context';
import { LIMITS } from '../config/limits';

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
    headers: z.record(z.string().min(1).max(200), z.string().max(4000)).default({}),
    body: z.string().max(LIMITS.hookTemplateMax).optional(),
  }),
  z.object({ type: z.literal('sql'), sql: z.string().trim().min(1, 'The SQL statement is empty').max(LIMITS.rawSqlMaxLength), dbAlias: z.string().min(1).default('db') }),
]);

export type CronAction = z.infer<typeof CronActionSchema>;

export interface ActionResult {
  ok: boolean;
  result: string | null;
  error: string | null;
}

const READS = /^\s*(\(?\s*select|with|pragma|show|explain|values|describe|desc)\b/i;
const cut = (s: string) => (s.length > LIMITS.automationResultMax ? `${s.slice(0, LIMITS.automationResultMax)}…` : s);

/** Runs the action once; never throws. */
export async function runAction(ctx: AppContext, projectId: string, a: CronAction): Promise<ActionResult> {
  try {
    if (a.type === 'url') {
      const timeout = AbortSignal.timeout(LIMITS.cronHttpTimeoutMs);
      let res: Response;
      try {
        const headers: Record<string, string> = { 'user-agent': 'Tablo-Cron', ...a.headers };
        const body = a.method === 'GET' ? undefined : a.body ?? '';
        res = await fetch(a.url, { method: a.method, headers, body, signal: timeout });
      } catch (e) {
        if (timeout.aborted) return { ok: false, result: null, error: `No answer from ${a.url} within ${LIMITS.cronHttpTimeoutMs / 1000} s` };
        return { ok: false, result: null, error: `Could not reach ${a.url}: ${(e as Error).message}` };
      }
      const text = cut(await res.text().catch(() => ''));
      const summary = `HTTP ${res.status}${text ? `: ${text}` : ''}`;
      return res.ok ? { ok: true, result: summary, error: null } : { ok: false, result: null, error: `The server answered ${summary}` };
    }
    const pdb = await ctx.projects.get(projectId, a.dbAlias);
    const driver = pdb.db.driver;
    if (READS.test(a.sql) || /\breturning\b/i.test(a.sql)) {
      const rows = await driver.query<Record<string, unknown>>({ sql: a.sql, params: [] });
      return { ok: true, result: cut(`${rows.length} row(s): ${JSON.stringify(rows.slice(0, 20))}`), error: null };
    }
    const res = await driver.execute({ sql: a.sql, params: [] });
    return { ok: true, result: `${res.affected} row(s) affected`, error: null };
  } catch (e) {
    return { ok: false, result: null, error: cut(`${a.type === 'sql' ? 'SQL error' : 'Error'}: ${(e as Error).message}`) };
  }
}
