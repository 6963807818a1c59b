/**
 * The activity of one row, shown in the expanded row: its comments (commenters and above add them;
 * everyone who can read the row reads them), a comment count per row for the grid, and its history
 * (who changed which columns when, with the previous and the new value) without the columns the
 * reader may not see. Every call first checks that the caller may read the row.
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { forbidden, notFound } from '../../../lib/errors';
import { dataContext, tableByName } from '../../rest/context';
import * as data from '../../../data/records-service';
import { readableTable } from '../../../data/read-scope';
import { grantOf, isUnrestricted, mayComment } from '../../../data/access';
import type { Actor } from '../../../lib/actor';
import type { DataContext } from '../../../data/data-context';
import { commentsRepo, type CommentRow } from '../../../meta/comments-repo';
import { commentsChanged } from '../../shared/comment-events';
import { auditRepo } from '../../../meta/audit-repo';
import { followRowActivitySchemaEvents } from '../row-activity-schema-events';

// Comments and history follow tables and columns renamed through Tablo.
followRowActivitySchemaEvents();

/** Most characters of a comment. */
export const COMMENT_MAX = 10_000;
/** Most history entries answered for one row. */
const HISTORY_MAX = 200;

/** The caller's data context and the table, after checking the row can be read (404 otherwise). */
async function readableRow(call: OpCall, tn: string, pk: string) {
  const dc = await dataContext(call.ctx, call.request, call.projectId, call.dbAlias);
  const t = tableByName(dc.pdb, tn);
  if (!(await data.exists(dc, t, pk))) throw notFound(`Row '${pk}' of '${t._tn}' not found`);
  return { dc, t };
}

const RowArgs = z.object({ tn: z.string().min(1), pk: z.string().min(1).max(1000) });
/** A comment's text, as added and as edited (same rules, same wording). */
const CommentBody = z.string().trim().min(1, 'A comment cannot be empty').max(COMMENT_MAX, `A comment holds at most ${COMMENT_MAX} characters`);
/** One comment of one row. */
const CommentArgs = RowArgs.extend({ id: z.string().min(1).max(100) });


/** Whether the caller wrote this comment (a user id is needed: the master key writes as nobody). */
const isAuthor = (call: OpCall, c: CommentRow) => !!call.actor.userId && c.user_id === call.actor.userId;

/** A comment as answered, with what the caller may do with it. */
function shown(call: OpCall, actor: Actor, c: CommentRow) {
  const own = isAuthor(call, c) && mayComment(actor);
  return { id: c.id, body: c.body, user: c.user_email, createdAt: c.created_at, updatedAt: c.updated_at ?? null, canEdit: own, canDelete: own || isUnrestricted(actor) };
}

/** The comment `id` of the row (after checking the row can be read), 404 if the row has no such comment. */
async function commentOf(call: OpCall, tn: string, pk: string, id: string) {
  const { dc, t } = await readableRow(call, tn, pk);
  const c = await commentsRepo(call.ctx.meta).get(call.projectId, call.dbAlias, id);
  if (!c || c.tn !== t.tn || c.pk !== pk) throw notFound(`Comment '${id}' not found`);
  return { dc, t, c };
}

/** Tells the open dashboards showing the table that its comments changed (realtime). */
const announce = (call: OpCall, tn: string) => commentsChanged({ meta: call.ctx.meta, projectId: call.projectId, dbAlias: call.dbAlias, tn });

export const commentList: DashboardOp = {
  name: 'commentList',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(RowArgs, call.args);
    const { dc, t } = await readableRow(call, a.tn, a.pk);
    const rows = await commentsRepo(call.ctx.meta).list(call.projectId, call.dbAlias, t.tn, a.pk);
    return { data: { list: rows.map((r) => shown(call, dc.actor, r)) } };
  },
};

export const commentCreate: DashboardOp = {
  name: 'commentCreate',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(RowArgs.extend({ body: CommentBody }), call.args);
    const { dc, t } = await readableRow(call, a.tn, a.pk);
    if (!mayComment(dc.actor)) throw forbidden('Only commenters, editors, creators and owners add comments');
    const row = await commentsRepo(call.ctx.meta).add(call.projectId, call.dbAlias, { tn: t.tn, pk: a.pk, user_id: call.actor.userId ?? null, user_email: call.actor.email ?? null, body: a.body });
    announce(call, t.tn);
    return shown(call, dc.actor, row);
  },
};

/** The author edits their comment: the body changes, the creation time stays, `updatedAt` is set. */
export const commentUpdate: DashboardOp = {
  name: 'commentUpdate',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(CommentArgs.extend({ body: CommentBody }), call.args);
    const { dc, c } = await commentOf(call, a.tn, a.pk, a.id);
    if (!isAuthor(call, c) || !mayComment(dc.actor)) throw forbidden('Only its author edits a comment');
    const updatedAt = await commentsRepo(call.ctx.meta).edit(call.projectId, call.dbAlias, c.id, a.body);
    announce(call, c.tn);
    return shown(call, dc.actor, { ...c, body: a.body, updated_at: updatedAt });
  },
};

/** The author deletes their comment; owners and creators delete anyone's. */
export const commentDelete: DashboardOp = {
  name: 'commentDelete',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(CommentArgs, call.args);
    const { dc, c } = await commentOf(call, a.tn, a.pk, a.id);
    const own = isAuthor(call, c) && mayComment(dc.actor);
    if (!own && !isUnrestricted(dc.actor)) throw forbidden('Only its author, owners and creators delete a comment');
    await commentsRepo(call.ctx.meta).remove(call.projectId, call.dbAlias, c.id);
    announce(call, c.tn);
    return { id: c.id, deleted: true };
  },
};

export const commentCounts: DashboardOp = {
  name: 'commentCounts',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(z.object({ tn: z.string().min(1), pks: z.array(z.string().min(1).max(1000)).max(1000) }), call.args);
    const dc = await dataContext(call.ctx, call.request, call.projectId, call.dbAlias);
    const t = tableByName(dc.pdb, a.tn);
    const grant = grantOf(dc.actor, dc.acl, t, 'read');
    if (!grant) throw forbidden(`Not allowed to read '${t._tn}'`);
    const counts = await commentsRepo(call.ctx.meta).counts(call.projectId, call.dbAlias, t.tn, a.pks);
    const out: Record<string, number> = {};
    for (const [pk, n] of counts) {
      // Under a row condition, only rows the caller may read are counted.
      if (grant.where && !(await data.exists(dc, t, pk))) continue;
      out[pk] = n;
    }
    return { counts: out };
  },
};

/**
 * A value of the history as the reader may see it: a whole row (an insert's, a delete's: no column)
 * loses its hidden keys; a column's value stays as it was written (a JSON object is no row).
 */
function visibleValue(v: string | null | undefined, shown: Set<string>, wholeRow: boolean): string | null {
  if (v === null || v === undefined) return null;
  if (!wholeRow) return v;
  try {
    const row = JSON.parse(v) as unknown;
    if (row && typeof row === 'object' && !Array.isArray(row)) return JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => shown.has(k))));
  } catch {}
  return v;
}

/**
 * The other row of a link's history entry (`{ tn, id, label? }`) as the reader may see it: its table's
 * display name, its id and its display value; null when the reader may not read that table or row.
 */
async function linkedRow(dc: DataContext, value: string | null | undefined): Promise<{ table: string; id: string; label?: string } | null> {
  let other: { tn?: unknown; id?: unknown; label?: unknown };
  try {
    other = JSON.parse(value ?? '') as typeof other;
  } catch {
    return null;
  }
  const t = dc.pdb.model.tables.find((x) => x.tn === other?.tn);
  if (!t || typeof other.id !== 'string') return null;
  const grant = grantOf(dc.actor, dc.acl, t, 'read');
  if (!grant || (grant.where && !(await data.exists(dc, t, other.id).catch(() => false)))) return null;
  const display = readableTable(dc, t).columns.some((c) => c.cn === t.displayColumn);
  return { table: t._tn, id: other.id, ...(display && typeof other.label === 'string' ? { label: other.label } : {}) };
}

export const rowHistory: DashboardOp = {
  name: 'rowHistory',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(RowArgs.extend({ limit: z.number().int().min(1).max(HISTORY_MAX).default(100) }), call.args);
    const { dc, t } = await readableRow(call, a.tn, a.pk);
    const visible = readableTable(dc, t);
    const byCn = new Map(visible.columns.map((c) => [c.cn, c]));
    const shown = new Set(visible.columns.map((c) => c._cn));
    const repo = auditRepo(call.ctx.meta);
    const rows = await repo.rowHistory(call.projectId, call.dbAlias, t.tn, a.pk, a.limit);
    // A row created by a bulk call: its creation is in the call's one entry.
    if (rows.length < a.limit && !rows.some((r) => r.description === 'insert')) {
      const created = await repo.bulkInsertOf(call.projectId, call.dbAlias, t.tn, a.pk);
      if (created) rows.push(created);
    }
    const list = [];
    for (const r of rows) {
      if (r.description === 'link' || r.description === 'unlink') {
        // A row linked or unlinked: named as this reader may see it, or left out.
        const other = await linkedRow(dc, r.value);
        if (other) list.push({ id: r.id, op: r.description, column: null, value: JSON.stringify(other), prevValue: null, user: r.user_email, createdAt: r.created_at });
        continue;
      }
      if (r.cn && !byCn.has(r.cn)) continue; // a column this reader may not see
      list.push({
        id: r.id,
        op: r.description,
        column: r.cn ? byCn.get(r.cn)!._cn : null,
        value: visibleValue(r.value, shown, !r.cn),
        prevValue: visibleValue(r.prev_value, shown, !r.cn),
        user: r.user_email,
        createdAt: r.created_at,
      });
    }
    return { data: { list } };
  },
};

export const ROW_ACTIVITY_OPS = [commentList, commentCreate, commentUpdate, commentDelete, commentCounts, rowHistory];
