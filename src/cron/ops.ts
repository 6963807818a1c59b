/**
 * Cron job dashboard operations (api-contract section 6, owners and creators): xcCronList (with
 * each job's next run times), xcCronCreate, xcCronUpdate, xcCronDelete, xcCronRun (run now, answers
 * the run), xcCronLogs, xcCronPreview (the next run times of a pattern while it is typed), and
 * xcCronHeaders (an HTTP action's header values in full, which lists mask, for an owner who asks).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../api/dashboard/op';
import { parseArgs } from '../api/dashboard/op';
import { auditRepo } from '../meta/audit-repo';
import { forbidden, notFound } from '../lib/errors';
import { newId } from '../lib/ids';
import { LIMITS } from '../config/limits';
import { cronsRepo, type CronRecord, type CronRunRecord } from '../meta/crons-repo';
import { checkPattern, nextRuns } from './schedule';
import { actionToSave, checkActionHeaders, CronActionSchema, maskedAction, OTHER_FILES_MSG, otherFilesStatement, type CronAction } from './action';
import { runClaimed } from './scheduler';

const Pattern = z.string().trim().min(1, 'The pattern is required').max(200);
/** An IANA time zone; left empty (a cleared field) it is UTC, as when it is not sent. */
const Zone = z
  .string()
  .trim()
  .max(100)
  .transform((v) => v || 'UTC');
const Title = z.string().trim().min(1, 'The title is required').max(255);
const CreateArgs = z.object({ title: Title, pattern: Pattern, timezone: Zone.default('UTC'), active: z.boolean().optional(), action: CronActionSchema });
const UpdateArgs = z.object({ id: z.string().min(1), title: Title.optional(), pattern: Pattern.optional(), timezone: Zone.optional(), active: z.boolean().optional(), action: CronActionSchema.optional() });
const IdArgs = z.object({ id: z.string().min(1, 'id is required') });
const LogArgs = z.object({ id: z.string().min(1), limit: z.coerce.number().int().min(1).max(500).default(50) });
const PreviewArgs = z.object({ pattern: Pattern, timezone: Zone.default('UTC') });

async function jobOf(call: OpCall, id: string): Promise<CronRecord> {
  const c = await cronsRepo(call.ctx.meta).byId(id);
  if (!c || c.project_id !== call.projectId) throw notFound(`Cron job '${id}' not found`);
  return c;
}

/**
 * The action as it is saved: header values left masked are those of `stored` again and every header
 * can be sent (400 otherwise); the SQL action's database must be one of the project's (404
 * otherwise), and its SQL stay in it (403).
 */
async function checkedAction(call: OpCall, sent: CronAction, stored: CronAction | null): Promise<CronAction> {
  const a = actionToSave(sent, stored);
  checkActionHeaders(a);
  if (a.type === 'sql') await checkSql(call, a);
  return a;
}

async function checkSql(call: OpCall, a: CronAction & { type: 'sql' }): Promise<void> {
  const pdb = await call.ctx.projects.get(call.projectId, a.dbAlias);
  if (otherFilesStatement(pdb.db.config.client, a.sql)) throw forbidden(OTHER_FILES_MSG);
}

const safeNext = (c: CronRecord) => {
  try {
    return nextRuns(c.pattern, c.timezone, LIMITS.cronNextRuns);
  } catch {
    return [];
  }
};

const jobView = (c: CronRecord) => ({
  id: c.id, title: c.title, pattern: c.pattern, timezone: c.timezone, active: c.active === 1, action: maskedAction(JSON.parse(c.action) as CronAction),
  next_runs: c.active === 1 ? safeNext(c) : [], last_run_at: c.last_run_at, last_status: c.last_status, created_at: c.created_at,
});

const runView = (r: CronRunRecord) => ({
  id: r.id, status: r.status, manual: r.manual === 1, tick: r.manual ? null : r.tick, started_at: r.started_at, finished_at: r.finished_at,
  duration_ms: r.duration_ms, result: r.result ?? undefined, error: r.error ?? undefined,
});

export const xcCronList: DashboardOp = {
  name: 'xcCronList',
  access: 'projectAdmin',
  async run(call) {
    return { data: { list: (await cronsRepo(call.ctx.meta).list(call.projectId)).map(jobView) } };
  },
};

/** A change of a cron job in the audit log (kind AUTOMATION), with who made it. */
const audited = (call: OpCall, description: string) =>
  auditRepo(call.ctx.meta).write({ op_type: 'AUTOMATION', project_id: call.projectId, description, user_email: call.actor.email ?? null });

export const xcCronCreate: DashboardOp = {
  name: 'xcCronCreate',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(CreateArgs, call.args);
    checkPattern(a.pattern, a.timezone);
    const action = await checkedAction(call, a.action, null);
    const c = await cronsRepo(call.ctx.meta).create({
      project_id: call.projectId, title: a.title, pattern: a.pattern, timezone: a.timezone, active: a.active === false ? 0 : 1,
      action: JSON.stringify(action), created_by: call.actor.email ?? null,
    });
    await audited(call, `cron job '${c.title}' created`);
    return jobView(c);
  },
};

export const xcCronUpdate: DashboardOp = {
  name: 'xcCronUpdate',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(UpdateArgs, call.args);
    const c = await jobOf(call, a.id);
    const action = a.action ? await checkedAction(call, a.action, JSON.parse(c.action) as CronAction) : null;
    const next: CronRecord = {
      ...c, title: a.title ?? c.title, pattern: a.pattern ?? c.pattern, timezone: a.timezone ?? c.timezone,
      active: a.active === undefined ? c.active : a.active ? 1 : 0, action: action ? JSON.stringify(action) : c.action,
    };
    checkPattern(next.pattern, next.timezone);
    await cronsRepo(call.ctx.meta).update(next);
    await audited(call, `cron job '${next.title}' changed`);
    return { ok: true };
  },
};

export const xcCronDelete: DashboardOp = {
  name: 'xcCronDelete',
  access: 'projectAdmin',
  async run(call) {
    const c = await jobOf(call, parseArgs(IdArgs, call.args).id);
    await cronsRepo(call.ctx.meta).remove(c.id);
    await audited(call, `cron job '${c.title}' deleted`);
    return { ok: true };
  },
};

export const xcCronRun: DashboardOp = {
  name: 'xcCronRun',
  access: 'projectAdmin',
  async run(call) {
    const c = await jobOf(call, parseArgs(IdArgs, call.args).id);
    const run = await cronsRepo(call.ctx.meta).claimTick(c.id, `manual:${new Date().toISOString()}:${newId('m')}`, true);
    return runView(await runClaimed(call.ctx, c, run!));
  },
};

export const xcCronLogs: DashboardOp = {
  name: 'xcCronLogs',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(LogArgs, call.args);
    await jobOf(call, a.id);
    return { data: { list: (await cronsRepo(call.ctx.meta).runs(a.id, a.limit)).map(runView) } };
  },
};

export const xcCronPreview: DashboardOp = {
  name: 'xcCronPreview',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(PreviewArgs, call.args);
    return { next_runs: nextRuns(a.pattern, a.timezone, LIMITS.cronNextRuns) };
  },
};

/** The header values of a job's HTTP action in full (lists mask them): `{ headers }`, empty for SQL jobs. */
export const xcCronHeaders: DashboardOp = {
  name: 'xcCronHeaders',
  access: 'projectAdmin',
  async run(call) {
    const a = JSON.parse((await jobOf(call, parseArgs(IdArgs, call.args).id)).action) as CronAction;
    return { headers: a.type === 'url' ? a.headers ?? {} : {} };
  },
};

export const CRON_OPS = [xcCronList, xcCronCreate, xcCronUpdate, xcCronDelete, xcCronRun, xcCronLogs, xcCronPreview, xcCronHeaders];
