/** Auth calls of spec section 7. */
import { http } from './http';
import type { ProjectInfo, User } from '../stores/session';

/** The auth and user calls; auth calls skip the refresh-on-401. */
export const authApi = {
  type: () => http<ProjectInfo>('/auth/type', { noRefresh: true }),
  me: () => http<User | Record<string, never>>('/user/me'),
  signin: (email: string, password: string) => http<{ token: string }>('/auth/signin', { body: { email, password }, query: { tool: 1 }, noRefresh: true }),
  signup: (email: string, password: string, inviteToken?: string) =>
    http<{ token: string }>('/auth/signup', { body: { email, password, token: inviteToken }, query: { tool: 1 }, noRefresh: true }),
  signout: () => http('/auth/signout', { method: 'POST', noRefresh: true }),
  forgot: (email: string) => http<{ msg: string }>('/auth/password/forgot', { body: { email }, noRefresh: true }),
  validateReset: (t: string) => http<boolean>(`/auth/token/validate/${encodeURIComponent(t)}`, { noRefresh: true }),
  reset: (t: string, password: string) => http<{ msg: string }>(`/auth/password/reset/${encodeURIComponent(t)}`, { body: { password }, noRefresh: true }),
  verifyMasterKey: (secret: string) => http<{ msg: string }>('/auth/admin/verify', { body: { secret }, noRefresh: true }),
  changePassword: (currentPassword: string, newPassword: string) =>
    http<{ msg: string; token: string }>('/user/password/change', { body: { currentPassword, newPassword } }),
};
