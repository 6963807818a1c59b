/** Auth calls of spec section 7. */
import { http } from './http';
import type { ProjectInfo, SigninProvider, User } from '../stores/session';

/** A provider account linked to the signed-in user. */
export interface LinkedAccount { provider: string; name: string; email: string | null; createdAt: string }
/** The profile fields answered by the profile calls. */
export interface Profile { id: string; email: string; firstname: string | null; lastname: string | null; picture: string | null; msg: string }

/** The auth and user calls; auth calls skip the refresh-on-401. */
export const authApi = {
  type: () => http<ProjectInfo>('/auth/type', { noRefresh: true }),
  me: () => http<User | Record<string, never>>('/user/me'),
  signin: (email: string, password: string) => http<{ token: string }>('/auth/signin', { body: { email, password }, query: { tool: 1 }, noRefresh: true }),
  signup: (email: string, password: string, inviteToken?: string) =>
    http<{ token: string }>('/auth/signup', { body: { email, password, token: inviteToken }, query: { tool: 1 }, noRefresh: true }),
  /** The e-mail an invite link was sent to (400 when the link is used or expired). */
  invite: (token: string) => http<{ email: string }>(`/auth/invite/${encodeURIComponent(token)}`, { noRefresh: true }),
  signout: () => http('/auth/signout', { method: 'POST', noRefresh: true }),
  forgot: (email: string) => http<{ msg: string }>('/auth/password/forgot', { body: { email }, noRefresh: true }),
  validateReset: (t: string) => http<boolean>(`/auth/token/validate/${encodeURIComponent(t)}`, { noRefresh: true }),
  reset: (t: string, password: string) => http<{ msg: string }>(`/auth/password/reset/${encodeURIComponent(t)}`, { body: { password }, noRefresh: true }),
  verifyMasterKey: (secret: string) => http<{ msg: string }>('/auth/admin/verify', { body: { secret }, noRefresh: true }),
  changePassword: (currentPassword: string | undefined, newPassword: string) =>
    http<{ msg: string; token: string }>('/user/password/change', { body: { currentPassword, newPassword } }),
  /** Finishes a provider sign-in: the code and state the provider sent back. */
  genTokenByCode: (provider: string, code: string, state: string) =>
    http<{ token?: string; linked?: string; msg?: string }>(`/auth/${encodeURIComponent(provider)}/genTokenByCode`, { method: 'POST', query: { code, state }, noRefresh: true }),
  accounts: () => http<{ hasPassword: boolean; providers: SigninProvider[]; list: LinkedAccount[] }>('/user/accounts'),
  linkAccount: (provider: string) => http<{ url: string }>(`/user/accounts/${encodeURIComponent(provider)}/link`, { method: 'POST' }),
  unlinkAccount: (provider: string) => http<{ msg: string }>(`/user/accounts/${encodeURIComponent(provider)}`, { method: 'DELETE' }),
  updateProfile: (firstname: string, lastname: string) => http<Profile>('/user/profile', { method: 'PUT', body: { firstname, lastname } }),
  setPictureUrl: (url: string) => http<Profile>('/user/picture', { method: 'PUT', body: { url } }),
  uploadPicture: (file: File) => {
    const form = new FormData();
    form.set('file', file);
    return http<Profile>('/user/picture', { method: 'POST', body: form });
  },
  removePicture: () => http<Profile>('/user/picture', { method: 'DELETE' }),
};
