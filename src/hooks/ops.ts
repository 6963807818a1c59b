/**
 * Webhook dashboard operations (api-contract section 6, owners and creators): xcHookList,
 * xcHookCreate (answers the signing secret of a url hook once), xcHookUpdate, xcHookDelete,
 * xcHookTest (one delivery now, answered), xcHookLogs, and xcHookHeaders (a url hook's header values,
 * or a chat hook's webhook URL, in full, which lists mask, for an owner who asks to see them).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../api/dashboard/op';
import { parseArgs } from '../api/dashboard/op';
import { auditRepo } from '../meta/audit-repo';
import { notFound } from '../lib/errors';
import { randomToken } from '../lib/ids';
import { seal } from '../lib/secret-box';
import { hooksRepo, type HookRecord } from '../meta/hooks-repo';
import { hookQueueRepo } from '../meta/hook-queue-repo';
import { list } from '../data/records-service';
import { parseHookCondition } from './condition';
import { HOOK_EVENTS, hookView, notificationToSave, notificationOf, secretOf } from './hook-model';
import { checkHeaders, checkTemplates, NotificationSchema, type Notification } from './notification';
import { sendOnce, type HookPayload } from './send';

const Fields = {
  title: z.string().trim().min(1, 'The title is required').max(255),
  event: z.enum(HOOK_EVENTS, { error: `The event is one of ${HOOK_EVENTS.join(', ')}` }),
  condition: z.string().max(2000).nullish(),
  active: z.boolean().optional(),
  notification: NotificationSchema,
};
const CreateArgs = z.object({ tn: z.string().min(1, 'tn is required'), ...Fields });
const UpdateArgs = z.object({ id: z.string().min(1), title: Fields.title.optional(), event: Fields.event.optional(), condition: Fields.condition, active: z.boolean().optional(), notification: NotificationSchema.optional(), rotateSecret: z.boolean().optional() });
const IdArgs = z.object({ id: z.string().min(1, 'id is required') });
const LogArgs = z.object({ id: z.string().min(1), limit: z.coerce.number().int().min(1).max(500).default(50) });
const ListArgs = z.object({ tn: z.string().min(1).optional() });

const newSecret = () => `whsec_${randomToken(24)}`;

async function tableOf(call: OpCall, tn: string) {
  const pdb = await call.ctx.projects.get(call.projectId, call.dbAlias, call.env);
  const t = pdb.table(tn);
  if (!t || t.type !== 'table') throw notFound(`Table '${tn}' not found`);
  return { pdb, t };
}

/** The hook by id within the call's project, else 404. */
async function hookOf(call: OpCall, id: string): Promise<HookRecord> {
  const h = await hooksRepo(call.ctx.meta).byId(id);
  if (!h || h.project_id !== call.projectId) throw notFound(`Hook '${id}' not found`);
  return h;
}

const checked = (n: Notification) => (checkTemplates(n), checkHeaders(n), n);

export const xcHookList: DashboardOp = {
  name: 'xcHookList',
  access: 'projectAdmin',
  async run(call) {
    const { tn } = parseArgs(ListArgs, call.args);
    const t = tn ? (await tableOf(call, tn)).t : undefined;
    const rows = await hooksRepo(call.ctx.meta).list(call.projectId, call.dbAlias, t?.tn);
    return { data: { list: rows.map((h) => hookView(h, call.ctx.secrets.connectionKey)) } };
  },
};

/** A change of a webhook in the audit log (kind AUTOMATION), with who made it. */
const audited = (call: OpCall, tn: string, description: string) =>
  auditRepo(call.ctx.meta).write({ op_type: 'AUTOMATION', project_id: call.projectId, db_alias: call.dbAlias, tn, description, user_email: call.actor.email ?? null });

export const xcHookCreate: DashboardOp = {
  name: 'xcHookCreate',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(CreateArgs, call.args);
    const { t } = await tableOf(call, a.tn);
    parseHookCondition(a.condition, t);
    const n = checked(notificationToSave(a.notification, null));
    const secret = n.type === 'url' ? newSecret() : null;
    const h = await hooksRepo(call.ctx.meta).create({
      project_id: call.projectId, db_alias: call.dbAlias, tn: t.tn, title: a.title, event: a.event,
      where_cond: a.condition?.trim() || null, active: a.active === false ? 0 : 1, notification: JSON.stringify(n),
      secret: secret ? seal(call.ctx.secrets.connectionKey, secret) : null,
    });
    await audited(call, t.tn, `webhook '${a.title}' of '${t.tn}' created`);
    return { id: h.id, secret };
  },
};

export const xcHookUpdate: DashboardOp = {
  name: 'xcHookUpdate',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(UpdateArgs, call.args);
    const h = await hookOf(call, a.id);
    const { t } = await tableOf(call, h.tn);
    const condition = a.condition === undefined ? h.where_cond : a.condition?.trim() || null;
    parseHookCondition(condition, t);
    const n = a.notification ? checked(notificationToSave(a.notification, notificationOf(h))) : notificationOf(h);
    let secret: string | null = null;
    let sealed = n.type === 'url' ? h.secret : null;
    if (n.type === 'url' && (!sealed || a.rotateSecret)) {
      secret = newSecret();
      sealed = seal(call.ctx.secrets.connectionKey, secret);
    }
    await hooksRepo(call.ctx.meta).update({
      ...h, title: a.title ?? h.title, event: a.event ?? h.event, where_cond: condition,
      active: a.active === undefined ? h.active : a.active ? 1 : 0, notification: JSON.stringify(n), secret: sealed,
    });
    await audited(call, h.tn, `webhook '${a.title ?? h.title}' of '${h.tn}' changed`);
    return secret ? { ok: true, secret } : { ok: true };
  },
};

export const xcHookDelete: DashboardOp = {
  name: 'xcHookDelete',
  access: 'projectAdmin',
  async run(call) {
    const h = await hookOf(call, parseArgs(IdArgs, call.args).id);
    await hooksRepo(call.ctx.meta).remove(h);
    await audited(call, h.tn, `webhook '${h.title}' of '${h.tn}' deleted`);
    return { ok: true };
  },
};

export const xcHookTest: DashboardOp = {
  name: 'xcHookTest',
  access: 'projectAdmin',
  async run(call) {
    const h = await hookOf(call, parseArgs(IdArgs, call.args).id);
    const { pdb, t } = await tableOf(call, h.tn);
    const dc = { pdb, actor: call.actor, maxLimit: 1, countTimeoutMs: call.ctx.config.countTimeoutMs };
    const [row] = await list(dc, t, { limit: '1' }).catch(() => []);
    const data = row ?? Object.fromEntries(t.columns.map((c) => [c._cn, null]));
    const payload: HookPayload = { event: h.event, table: t._tn, data, ...(h.event === 'after.update' ? { previous: data } : {}), hook: { id: h.id, title: h.title }, at: new Date().toISOString() };
    const r = await sendOnce(notificationOf(h), payload, { mailOwner: call.ctx, secret: secretOf(h, call.ctx.secrets.connectionKey), timeoutMs: call.ctx.config.hookTimeoutMs, allowPrivate: call.ctx.config.apiClientAllowPrivate });
    const log = await hookQueueRepo(call.ctx.meta).logOnly(h.id, 'test', { status: r.ok ? 'success' : 'error', responseStatus: r.status, error: r.error, durationMs: r.durationMs });
    return { ...log, delivery_id: undefined, hook_id: undefined };
  },
};

export const xcHookLogs: DashboardOp = {
  name: 'xcHookLogs',
  access: 'projectAdmin',
  async run(call) {
    const a = parseArgs(LogArgs, call.args);
    await hookOf(call, a.id);
    const rows = await hookQueueRepo(call.ctx.meta).logs(a.id, a.limit);
    return { data: { list: rows.map(({ hook_id: _h, ...r }) => ({ ...r, error: r.error ?? undefined })) } };
  },
};

/**
 * The secrets of a hook in full (lists mask them): `{ headers }`, a url hook's header values (empty for
 * other hooks), and `webhook_url` for a chat hook that has its own.
 */
export const xcHookHeaders: DashboardOp = {
  name: 'xcHookHeaders',
  access: 'projectAdmin',
  async run(call) {
    const n = notificationOf(await hookOf(call, parseArgs(IdArgs, call.args).id));
    const chatUrl = n.type !== 'url' && n.type !== 'email' ? n.webhook_url : undefined;
    return { headers: n.type === 'url' ? n.headers : {}, ...(chatUrl ? { webhook_url: chatUrl } : {}) };
  },
};

export const HOOK_OPS = [xcHookList, xcHookCreate, xcHookUpdate, xcHookDelete, xcHookTest, xcHookLogs, xcHookHeaders];
