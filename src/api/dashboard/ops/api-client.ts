/**
 * The API client and the gRPC client: requests to other hosts and gRPC calls sent by the server
 * (owners and creators; public addresses only unless NC_API_CLIENT_ALLOW_PRIVATE), saved requests
 * and environments per project (owners and creators keep them; other members list them without
 * their credentials), and each
 * caller's history (the newest 500, newest first).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../op';
import { parseArgs } from '../op';
import { badRequest, conflict, forbidden, notFound } from '../../../lib/errors';
import { newId, nowIso } from '../../../lib/ids';
import { ownerKey } from '../../../lib/actor';
import { ADMIN_ROLES, rolesInProject } from '../../../data/access';
import { sendForClient, SendArgs } from '../../clients/http-send';

/** Entries of history kept per caller and project. */
export const API_CLIENT_HISTORY_MAX = 500;
/** Most characters of one history entry (a large answer is cut, marked as such). */
const ENTRY_MAX = 256 * 1024;

export const apiClientSend: DashboardOp = {
  name: 'apiClientSend',
  access: 'projectAdmin',
  run: ({ ctx, args }) => sendForClient(parseArgs(SendArgs, args), ctx.config.apiClientAllowPrivate),
};

export const grpcServices: DashboardOp = {
  name: 'grpcServices',
  access: 'projectAdmin',
  run: async ({ ctx, args }) => {
    const { listServices, Target } = await grpcBridge();
    return listServices(parseArgs(Target, args), ctx.config.apiClientAllowPrivate);
  },
};

export const grpcCall: DashboardOp = {
  name: 'grpcCall',
  access: 'projectAdmin',
  run: async ({ ctx, args }) => {
    const { callMethod, CallArgs } = await grpcBridge();
    return callMethod(parseArgs(CallArgs, args), ctx.config.apiClientAllowPrivate);
  },
};

/** The gRPC client (grpc-js, protobufjs) loads with the first gRPC call: most servers never make one. */
const grpcBridge = () => import('../../clients/grpc-bridge');

/** Whether the caller sends requests from the server: owners and creators (and the Super Admin). */
function maySend(call: OpCall): boolean {
  const a = call.actor;
  if (a.kind === 'master' || (a.superAdmin && !a.previewAs)) return true;
  return rolesInProject(a, call.projectRoles).some((r) => ADMIN_ROLES.includes(r));
}

/** Those who send requests keep the saved requests and environments. */
function assertMayChange(call: OpCall): void {
  if (!maySend(call)) throw forbidden('Only owners and creators change saved requests and environments');
}

/** Header and parameter names that carry credentials. */
const SECRET_NAME = /auth|token|key|secret|password|passwd|cookie|session|signature|credential/i;

/**
 * A saved item as members who do not send requests see it: credentials left out (values of headers
 * and parameters named like one, the auth field, every variable of an environment), so that an
 * owner's saved token never reaches a viewer. They may not change items, so nothing masked is saved back.
 */
function withoutSecrets(kind: 'request' | 'environment', data: Record<string, unknown>): Record<string, unknown> {
  const hide = (rows: unknown, all: boolean) =>
    Array.isArray(rows) ? rows.map((r) => (r && typeof r === 'object' && (all || SECRET_NAME.test(String((r as { name?: unknown }).name ?? ''))) ? { ...r, value: '' } : r)) : rows;
  if (kind === 'environment') return { ...data, variables: hide(data.variables, true) };
  return { ...data, auth: '', headers: hide(data.headers, false), params: hide(data.params, false) };
}

const KIND = z.enum(['request', 'environment']);

export const apiClientItemList: DashboardOp = {
  name: 'apiClientItemList',
  access: 'projectMember',
  async run(call) {
    const { kind } = parseArgs(z.object({ kind: KIND }), call.args);
    const rows = await call.ctx.meta.all<{ id: string; collection: string; name: string; data: string; updated_at: string }>(
      'SELECT id, collection, name, data, updated_at FROM nc_api_client_items WHERE project_id = ? AND kind = ? ORDER BY collection, name',
      [call.projectId, kind],
    );
    const whole = maySend(call);
    return { data: { list: rows.map((r) => ({ id: r.id, collection: r.collection, name: r.name, data: whole ? JSON.parse(r.data) : withoutSecrets(kind, JSON.parse(r.data)), updatedAt: r.updated_at })) } };
  },
};

const SaveArgs = z.object({
  id: z.string().optional(),
  kind: KIND,
  collection: z.string().trim().max(100).default(''),
  name: z.string().trim().min(1, 'A name is required').max(200),
  data: z.record(z.string(), z.unknown()),
});

export const apiClientItemSave: DashboardOp = {
  name: 'apiClientItemSave',
  access: 'projectMember',
  async run(call) {
    assertMayChange(call);
    const a = parseArgs(SaveArgs, call.args);
    const data = JSON.stringify(a.data);
    if (data.length > ENTRY_MAX) throw badRequest(`A saved item holds at most ${ENTRY_MAX} characters`);
    // Environments are picked by name from a list: two of the same name could not be told apart.
    if (a.kind === 'environment') {
      const same = await call.ctx.meta.get<{ id: string }>(
        'SELECT id FROM nc_api_client_items WHERE project_id = ? AND kind = ? AND lower(name) = lower(?) AND id <> ?',
        [call.projectId, 'environment', a.name, a.id ?? ''],
      );
      if (same) throw conflict(`An environment named '${a.name}' already exists`);
    }
    if (a.id) {
      const done = await call.ctx.meta.run('UPDATE nc_api_client_items SET collection = ?, name = ?, data = ?, updated_at = ? WHERE id = ? AND project_id = ? AND kind = ?', [
        a.collection, a.name, data, nowIso(), a.id, call.projectId, a.kind,
      ]);
      if (!done.changes) throw notFound('That saved item no longer exists');
      return { id: a.id };
    }
    const id = newId('ac');
    await call.ctx.meta.run(
      'INSERT INTO nc_api_client_items (id, project_id, kind, collection, name, data, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [id, call.projectId, a.kind, a.collection, a.name, data, call.actor.userId ?? null, nowIso(), nowIso()],
    );
    return { id };
  },
};

export const apiClientItemDelete: DashboardOp = {
  name: 'apiClientItemDelete',
  access: 'projectMember',
  async run(call) {
    assertMayChange(call);
    const { id } = parseArgs(z.object({ id: z.string().min(1) }), call.args);
    const done = await call.ctx.meta.run('DELETE FROM nc_api_client_items WHERE id = ? AND project_id = ?', [id, call.projectId]);
    if (!done.changes) throw notFound('That saved item no longer exists');
    return { ok: true };
  },
};

/** Whose history: the user, the API token, else the kind of caller (master key). */
const ownerOf = (call: OpCall) => ownerKey(call.actor);

export const apiClientHistoryList: DashboardOp = {
  name: 'apiClientHistoryList',
  access: 'projectMember',
  async run(call) {
    const rows = await call.ctx.meta.all<{ id: string; entry: string }>(
      'SELECT id, entry FROM nc_api_client_history WHERE owner = ? AND project_id = ? ORDER BY seq DESC LIMIT ?',
      [ownerOf(call), call.projectId, API_CLIENT_HISTORY_MAX],
    );
    return { data: { list: rows.map((r) => ({ id: r.id, ...JSON.parse(r.entry) })) } };
  },
};

export const apiClientHistoryAdd: DashboardOp = {
  name: 'apiClientHistoryAdd',
  access: 'projectMember',
  async run(call) {
    const { entry } = parseArgs(z.object({ entry: z.record(z.string(), z.unknown()) }), call.args);
    let text = JSON.stringify(entry);
    if (text.length > ENTRY_MAX) {
      const response = (entry.response ?? {}) as Record<string, unknown>;
      text = JSON.stringify({ ...entry, response: { ...response, data: '(answer too large to keep in the history)', truncated: true } });
    }
    const owner = ownerOf(call);
    const id = newId('ah');
    await call.ctx.meta.transaction(async (tx) => {
      const last = await tx.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM nc_api_client_history WHERE owner = ? AND project_id = ?', [owner, call.projectId]);
      const seq = (last?.seq ?? 0) + 1;
      await tx.run('INSERT INTO nc_api_client_history (id, owner, project_id, seq, entry, created_at) VALUES (?, ?, ?, ?, ?, ?)', [id, owner, call.projectId, seq, text, nowIso()]);
      await tx.run('DELETE FROM nc_api_client_history WHERE owner = ? AND project_id = ? AND seq <= ?', [owner, call.projectId, seq - API_CLIENT_HISTORY_MAX]);
    });
    return { id };
  },
};

export const apiClientHistoryClear: DashboardOp = {
  name: 'apiClientHistoryClear',
  access: 'projectMember',
  async run(call) {
    await call.ctx.meta.run('DELETE FROM nc_api_client_history WHERE owner = ? AND project_id = ?', [ownerOf(call), call.projectId]);
    return { ok: true };
  },
};

export const API_CLIENT_OPS = [apiClientSend, grpcServices, grpcCall, apiClientItemList, apiClientItemSave, apiClientItemDelete, apiClientHistoryList, apiClientHistoryAdd, apiClientHistoryClear];
