/**
 * API tokens of a project: created with a description, an optional expiry and a role; the token
 * is shown once and stored hashed; listed without tokens, enabled/disabled, deleted. Every change
 * is written to the audit log. A token belongs to its project only; one made by a member may not
 * carry a role above the member's, and acts with at most the member's current role later on
 * (src/http/token-actor.ts).
 */
import { forgetTokenActors } from '../../../http/token-actor';
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { badRequest, forbidden, notFound } from '../../../lib/errors';
import { newId, nowIso, randomToken, sha256 } from '../../../lib/ids';
import { auditRepo } from '../../../meta/audit-repo';
import { cappedRole } from '../../../http/token-actor';
import { apiTokensRepo, forgetApiToken } from '../../../meta/api-tokens-repo';

const ROLE = z.enum(['owner', 'creator', 'editor', 'commenter', 'viewer'], { error: 'The role is owner, creator, editor, commenter or viewer' });
const EXPIRY = 'The expiry is a date (2030-12-31) or a date and time with its offset (2030-12-31T18:00:00Z)';

const CreateArgs = z.object({
  description: z.string().trim().min(1, 'A description is required').max(255),
  role: ROLE.default('editor'),
  expiresAt: z.union([z.iso.datetime({ offset: true }), z.iso.date()], { error: EXPIRY }).optional(),
});

interface TokenRow {
  id: string;
  description: string;
  role: string;
  expires_at: string | null;
  enabled: number;
  created_at: string;
  created_by: string | null;
  token_hash: string;
}

/** Owners (and the master key, an unpreviewed Super Admin) manage every token; others none above their own role. */
function assertMayManage(actor: OpCall['actor'], projectRoles: string[], row: TokenRow): void {
  const unlimited = actor.kind === 'master' || (!!actor.superAdmin && !actor.previewAs);
  if (!unlimited && cappedRole(row.role, projectRoles) !== row.role) {
    throw forbidden(row.role === 'owner' ? 'Only an owner can change or delete owner tokens' : `A token with a role above your own (${row.role}) is changed by an owner`);
  }
}

const view = (r: TokenRow) => ({ id: r.id, description: r.description, role: r.role, expiresAt: r.expires_at, enabled: !!r.enabled, createdAt: r.created_at });

export const xcApiTokenCreate: DashboardOp = {
  name: 'xcApiTokenCreate',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args, projectRoles }) {
    const a = parseArgs(CreateArgs, args);
    const expires = a.expiresAt ? new Date(a.expiresAt).toISOString() : null;
    if (expires && expires <= nowIso()) throw badRequest('The expiry must be in the future');
    if (actor.kind === 'token') throw forbidden('An API token cannot create API tokens');
    const unlimited = actor.kind === 'master' || (!!actor.superAdmin && !actor.previewAs);
    if (!unlimited && cappedRole(a.role, projectRoles) !== a.role) {
      throw forbidden(a.role === 'owner' ? 'Only an owner can create owner tokens' : `A token cannot carry a role above your own (${a.role})`);
    }
    const id = newId('tk');
    const token = `tablo_${randomToken(32)}`;
    await apiTokensRepo(ctx.meta).insert({ id, projectId, description: a.description, hash: sha256(token), role: a.role, expiresAt: expires, createdBy: actor.userId ?? null, byMaster: actor.kind === 'master' });
    await auditRepo(ctx.meta).write({ op_type: 'TOKEN', project_id: projectId, description: `API token '${a.description}' created (${a.role})`, user_email: actor.email ?? null });
    return { id, token, description: a.description, role: a.role, expiresAt: expires };
  },
};

export const xcApiTokenList: DashboardOp = {
  name: 'xcApiTokenList',
  access: 'projectAdmin',
  async run({ ctx, projectId }) {
    const rows = await ctx.meta.all<TokenRow>('SELECT * FROM nc_api_tokens WHERE project_id = ? ORDER BY created_at DESC', [projectId]);
    return { data: { list: rows.map(view) } };
  },
};

const UpdateArgs = z.object({ id: z.string().min(1), enabled: z.boolean().optional(), description: z.string().trim().min(1).max(255).optional() });

export const xcApiTokenUpdate: DashboardOp = {
  name: 'xcApiTokenUpdate',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args, projectRoles }) {
    const a = parseArgs(UpdateArgs, args);
    const row = await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ? AND project_id = ?', [a.id, projectId]);
    if (!row) throw notFound('API token not found');
    assertMayManage(actor, projectRoles, row);
    await ctx.meta.run('UPDATE nc_api_tokens SET enabled = COALESCE(?, enabled), description = COALESCE(?, description) WHERE id = ?', [
      a.enabled === undefined ? null : a.enabled ? 1 : 0,
      a.description ?? null,
      a.id,
    ]);
    forgetTokenActors(ctx.meta);
    await forgetApiToken(ctx.meta, row.token_hash);
    const what = a.enabled === undefined ? 'renamed' : a.enabled ? 'enabled' : 'disabled';
    await auditRepo(ctx.meta).write({ op_type: 'TOKEN', project_id: projectId, description: `API token '${row.description}' ${what}`, user_email: actor.email ?? null });
    return view((await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ?', [a.id]))!);
  },
};

export const xcApiTokenDelete: DashboardOp = {
  name: 'xcApiTokenDelete',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args, projectRoles }) {
    const { id } = parseArgs(z.object({ id: z.string().min(1) }), args);
    const row = await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ? AND project_id = ?', [id, projectId]);
    if (!row) throw notFound('API token not found');
    assertMayManage(actor, projectRoles, row);
    await ctx.meta.run('DELETE FROM nc_api_tokens WHERE id = ?', [id]);
    forgetTokenActors(ctx.meta);
    await forgetApiToken(ctx.meta, row.token_hash);
    await auditRepo(ctx.meta).write({ op_type: 'TOKEN', project_id: projectId, description: `API token '${row.description}' deleted`, user_email: actor.email ?? null });
    return { ok: true };
  },
};
