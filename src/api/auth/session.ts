/** Issues a session: the JWT answered as `{ token }` and a new refresh cookie. */
import type { BaseContext } from '../../context';
import { signSession } from '../../auth/jwt';
import { refreshTokens } from '../../auth/refresh-tokens';
import type { UserRow } from '../../meta/users-repo';
import { refreshCookie } from './cookies';
import { newId } from '../../lib/ids';

/**
 * Starts a sign-in session for the user: a refresh-token family, the JWT naming it (`sid`) and the
 * refresh cookie on the answer (Secure when the request came over HTTPS).
 */
export async function issueSession(ctx: BaseContext, user: UserRow, set: { headers: Record<string, unknown> }, request?: Request): Promise<{ token: string }> {
  const sid = newId('rf');
  const refresh = await refreshTokens(ctx.meta).issue(user.id, sid);
  const token = await signSession(ctx.secrets.jwtSecret, { id: user.id, email: user.email, v: user.token_version, sid });
  set.headers['set-cookie'] = refreshCookie(ctx.config, refresh, request);
  return { token };
}
