/** Team members, invites and API tokens of a project. */
import { http } from './http';
import { dashboardOp } from './projects';

export interface Member { id: string; email: string; roles: string; status: string }
export interface ApiToken { id: string; description: string; role: string; expiresAt: string | null; enabled: boolean; createdAt: string }

export const teamApi = {
  members: async (projectId: string) => (await http<{ list: Member[] }>('/admin', { query: { project_id: projectId } })).list,
  invite: (projectId: string, email: string, roles: string) =>
    http<{ msg: string; invite_url?: string; mailed?: boolean; mail_error?: string }>('/admin', { method: 'POST', body: { email, roles, project_id: projectId } }),
  setRoles: (projectId: string, userId: string, roles: string) => http(`/admin/${userId}`, { method: 'PUT', body: { roles, project_id: projectId } }),
  remove: (projectId: string, userId: string) => http(`/admin/${userId}`, { method: 'DELETE', query: { project_id: projectId } }),
  resend: (projectId: string, userId: string) => http<{ msg: string; invite_url?: string; mailed?: boolean; mail_error?: string }>(`/admin/resendInvite/${userId}`, { method: 'POST', query: { project_id: projectId } }),
  revoke: (projectId: string, userId: string) => http<{ msg: string }>(`/admin/invite/${userId}`, { method: 'DELETE', query: { project_id: projectId } }),
  tokens: async (projectId: string) => (await dashboardOp<{ data: { list: ApiToken[] } }>('xcApiTokenList', { projectId })).data.list,
  createToken: (projectId: string, description: string, role: string, expiresAt?: string) =>
    dashboardOp<{ token: string }>('xcApiTokenCreate', { projectId, args: { description, role, expiresAt: expiresAt || undefined } }),
  updateToken: (projectId: string, id: string, enabled: boolean) => dashboardOp('xcApiTokenUpdate', { projectId, args: { id, enabled } }),
  deleteToken: (projectId: string, id: string) => dashboardOp('xcApiTokenDelete', { projectId, args: { id } }),
};
