/** Issues a session: the JWT answered as `{ token }` and a new refresh cookie. */
import type { BaseContext } from '../../context';
import { signSession } from '../../auth/jwt';
import { refreshTokens } from '../../auth/refresh-tokens';
import type { UserRow } from '../../meta/users-repo';
import { refreshCookie } from './cookies';

/** Signs a session for the user and sets the refresh cookie on the answer. */
export async function issueSession(ctx: BaseContext, user: UserRow, set: { headers: Record<string, unknown> }): Promise<{ token: string }> {
  const token = await signSession(ctx.secrets.jwtSecret, { id: user.id, email: user.email, v: user.token_version });
  set.headers['set-cookie'] = refreshCookie(ctx.config, await refreshTokens(ctx.meta).issue(user.id));
  return { token };
}
