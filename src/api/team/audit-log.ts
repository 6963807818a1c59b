/**
 * The audit log for the Super Admin: `GET /admin/audit?op_type=&search=&limit=&offset=` answers
 * `{ list, pageInfo }`, newest first. op_type is AUTHENTICATION, TEAM, TOKEN, DATA, SCHEMA, TERMINAL, PLUGIN (App Store),
 * AUTOMATION (webhooks and cron jobs) or METADATA (imports and clears); search
 * matches the e-mail or the description; project_id and tn narrow it to one project and table. A data
 * change carries its record: table, row key, column and the values before and after (each cut at 500 chars).
 */
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { forbidden, unauthorized } from '../../lib/errors';
import { parseBody } from '../../auth/passwords';
import { auditRepo } from '../../meta/audit-repo';
import { resolveActor } from '../../http/principal';

/** Largest page of the audit log. */
const AUDIT_PAGE_MAX = 500;
/** Longest value of a data change sent in a page (a bulk insert records every row). */
const AUDIT_VALUE_MAX = 500;

const clip = (v: string | null | undefined): string | null => (v == null ? null : v.length > AUDIT_VALUE_MAX ? `${v.slice(0, AUDIT_VALUE_MAX)}…` : v);

const AuditQuery = z.object({
  op_type: z.enum(['AUTHENTICATION', 'TEAM', 'TOKEN', 'DATA', 'SCHEMA', 'TERMINAL', 'PLUGIN', 'AUTOMATION', 'METADATA'], { error: 'op_type is AUTHENTICATION, TEAM, TOKEN, DATA, SCHEMA, TERMINAL, PLUGIN, AUTOMATION or METADATA' }).optional(),
  search: z.string().trim().max(200).optional(),
  project_id: z.string().trim().max(200).optional(),
  tn: z.string().trim().max(255).optional(),
  limit: z.coerce.number<string>({ error: 'limit must be a number' }).int().min(1).max(AUDIT_PAGE_MAX).default(100),
  offset: z.coerce.number<string>({ error: 'offset must be a number' }).int().min(0).default(0),
});

/** The Super Admin's audit log route. */
export function auditLogRoutes(ctx: AppContext) {
  return new Elysia({ name: 'audit-log' }).get('/admin/audit', async ({ request, query }) => {
    const actor = await resolveActor(ctx, request);
    if (actor.kind === 'guest') throw unauthorized('Not signed in');
    if (!(actor.kind === 'master' || actor.superAdmin)) throw forbidden('Only the Super Admin reads the audit log');
    const q = parseBody(AuditQuery, query);
    const { rows, total } = await auditRepo(ctx.meta).search({ op_type: q.op_type, search: q.search || undefined, project_id: q.project_id || undefined, tn: q.tn || undefined }, q.limit, q.offset);
    return {
      list: rows.map((r) => ({
        id: r.id,
        opType: r.op_type,
        description: r.description,
        userEmail: r.user_email,
        ip: r.ip,
        projectId: r.project_id,
        tn: r.tn,
        // A data change's record (spec section 3): the row's key, the column, and its values before and after.
        pk: r.pk ?? null,
        cn: r.cn ?? null,
        value: clip(r.value),
        prevValue: clip(r.prev_value),
        createdAt: r.created_at,
      })),
      pageInfo: { totalRows: total, limit: q.limit, offset: q.offset },
    };
  });
}
