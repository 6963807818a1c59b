/** Signs up the first user (the Super Admin) of a test app. */
import type { TestApp } from './app';

export async function signupSuperAdmin(t: TestApp, email = 'admin@example.com', password = 'password123') {
  const res = await t.request('POST', '/auth/signup', { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { token: res.body.token as string, email, password, cookie: res.headers.get('set-cookie') ?? '' };
}

export const authHeaders = (token: string) => ({ 'xc-auth': token });
