/**
 * API tokens of a project: created with a description, an optional expiry and a role; the token
 * is shown once and stored hashed; listed without tokens, enabled/disabled, deleted. Every change
 * is written to the audit log.
 */
import { z } from 'zod';
import type { DashboardOp } from '../op';
import { parseArgs } from '../op';
import { badRequest, notFound } from '../../../lib/errors';
import { newId, nowIso, randomToken, sha256 } from '../../../lib/ids';
import { auditRepo } from '../../../meta/audit-repo';
import { forgetApiToken } from '../../../meta/api-tokens-repo';

const ROLE = z.enum(['owner', 'creator', 'editor', 'commenter', 'viewer']);

const CreateArgs = z.object({
  description: z.string().trim().min(1, 'A description is required').max(255),
  role: ROLE.default('editor'),
  expiresAt: z.iso.datetime({ offset: true }).optional().or(z.iso.date().optional()),
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

const view = (r: TokenRow) => ({ id: r.id, description: r.description, role: r.role, expiresAt: r.expires_at, enabled: !!r.enabled, createdAt: r.created_at });

export const xcApiTokenCreate: DashboardOp = {
  name: 'xcApiTokenCreate',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args }) {
    const a = parseArgs(CreateArgs, args);
    const expires = a.expiresAt ? new Date(a.expiresAt).toISOString() : null;
    if (expires && expires <= nowIso()) throw badRequest('The expiry must be in the future');
    if (a.role === 'owner' && !actor.superAdmin && actor.kind !== 'master' && !actor.roles.includes('owner')) {
      throw badRequest('Only an owner can create owner tokens');
    }
    const id = newId('tk');
    const token = `tablo_${randomToken(32)}`;
    await ctx.meta.run(
      'INSERT INTO nc_api_tokens (id, project_id, description, token_hash, role, expires_at, enabled, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)',
      [id, projectId, a.description, sha256(token), a.role, expires, actor.userId ?? null, nowIso()],
    );
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
  async run({ ctx, actor, projectId, args }) {
    const a = parseArgs(UpdateArgs, args);
    const row = await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ? AND project_id = ?', [a.id, projectId]);
    if (!row) throw notFound('API token not found');
    await ctx.meta.run('UPDATE nc_api_tokens SET enabled = COALESCE(?, enabled), description = COALESCE(?, description) WHERE id = ?', [
      a.enabled === undefined ? null : a.enabled ? 1 : 0,
      a.description ?? null,
      a.id,
    ]);
    await forgetApiToken(ctx.meta, row.token_hash);
    const what = a.enabled === undefined ? 'renamed' : a.enabled ? 'enabled' : 'disabled';
    await auditRepo(ctx.meta).write({ op_type: 'TOKEN', project_id: projectId, description: `API token '${row.description}' ${what}`, user_email: actor.email ?? null });
    return view((await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ?', [a.id]))!);
  },
};

export const xcApiTokenDelete: DashboardOp = {
  name: 'xcApiTokenDelete',
  access: 'projectAdmin',
  async run({ ctx, actor, projectId, args }) {
    const { id } = parseArgs(z.object({ id: z.string().min(1) }), args);
    const row = await ctx.meta.get<TokenRow>('SELECT * FROM nc_api_tokens WHERE id = ? AND project_id = ?', [id, projectId]);
    if (!row) throw notFound('API token not found');
    await ctx.meta.run('DELETE FROM nc_api_tokens WHERE id = ?', [id]);
    await forgetApiToken(ctx.meta, row.token_hash);
    await auditRepo(ctx.meta).write({ op_type: 'TOKEN', project_id: projectId, description: `API token '${row.description}' deleted`, user_email: actor.email ?? null });
    return { ok: true };
  },
};
