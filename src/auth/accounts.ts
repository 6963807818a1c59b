/**
 * Account flows over the metadata store: sign-up (first user = Super Admin; later ones need an
 * invite unless sign-up is open), sign-in, password change, forgotten-password tokens.
 */
import type { MetaStore } from '../meta/store';
import { usersRepo, type UserRow } from '../meta/users-repo';
import { badRequest, forbidden, notFound } from '../lib/errors';
import { nowIso, randomToken, sha256 } from '../lib/ids';
import { LIMITS } from '../config/limits';
import { dummyVerify, hashPassword, verifyPassword } from './passwords';

export const MSG_BAD_CREDENTIALS = 'Invalid email or password';
export const MSG_INVITE_REQUIRED = 'Sign-up is by invitation only: ask a project owner for an invite link';
export const MSG_RESET_INVALID = 'This password reset link is invalid or has expired';
export const MSG_INVITE_INVALID = 'This invite link is invalid or has expired';

/**
 * Refuses a sign-up that is not the first one unless it carries a live invite for its e-mail or
 * sign-up is open (and the e-mail is free); answers the invited user, if any.
 */
async function assertMaySignUp(users: ReturnType<typeof usersRepo>, input: { email: string; token?: string }, allowSignup: boolean): Promise<UserRow | undefined> {
  if (input.token) {
    const invited = await users.byInviteHash(sha256(input.token));
    if (!invited || !invited.invite_expires_at || invited.invite_expires_at < nowIso()) throw badRequest(MSG_INVITE_INVALID);
    if (invited.email !== input.email) throw badRequest('This invite was sent to another e-mail address');
    // Disabled by the Super Admin before taking the invite up: no password is set, no session begins.
    if (invited.disabled) throw forbidden('This account is disabled');
    return invited;
  }
  // Invite-only: the same answer whether the e-mail has an account or not, so that sign-up does
  // not tell strangers who uses this server (sign-in and password reset do not tell either).
  if (!allowSignup) throw forbidden(MSG_INVITE_REQUIRED);
  if (await users.byEmail(input.email)) throw badRequest('An account with this e-mail already exists: sign in instead');
  return undefined;
}

export function accounts(meta: MetaStore, opts: { allowSignup: boolean }) {
  const users = usersRepo(meta);
  return {
    users,
    async signup(input: { email: string; password: string; firstname?: string; lastname?: string; token?: string }): Promise<UserRow> {
      // Refusals that need no hash come first: an argon2id hash costs a good part of a CPU second and
      // tens of MB, and anyone may call sign-up, so a refused call must not make one. The checks are
      // made again below, in the transaction that writes.
      if ((await users.count()) > 0) await assertMaySignUp(usersRepo(meta), input, opts.allowSignup);
      const hash = await hashPassword(input.password);
      return meta.transaction(async (tx) => {
        const txUsers = usersRepo(tx);
        if ((await txUsers.count()) === 0) {
          return txUsers.create({ email: input.email, passwordHash: hash, roles: 'super,user', firstname: input.firstname, lastname: input.lastname });
        }
        const invited = await assertMaySignUp(txUsers, input, opts.allowSignup);
        if (invited) {
          await txUsers.setPassword(invited.id, hash);
          await txUsers.update(invited.id, { firstname: input.firstname, lastname: input.lastname });
          return (await txUsers.byId(invited.id))!;
        }
        return txUsers.create({ email: input.email, passwordHash: hash, roles: 'user', firstname: input.firstname, lastname: input.lastname });
      });
    },

    /** The e-mail an invite link was sent to, so the sign-up page can show it; 400 when the link is used or expired. */
    async inviteEmail(token: string): Promise<string> {
      const invited = await users.byInviteHash(sha256(token));
      if (!invited || !invited.invite_expires_at || invited.invite_expires_at < nowIso()) throw badRequest(MSG_INVITE_INVALID);
      return invited.email;
    },

    async signin(email: string, password: string): Promise<UserRow> {
      const user = await users.byEmail(email);
      if (!user || !user.password_hash) {
        await dummyVerify(password);
        throw badRequest(MSG_BAD_CREDENTIALS);
      }
      if (!(await verifyPassword(password, user.password_hash))) throw badRequest(MSG_BAD_CREDENTIALS);
      if (user.disabled) throw forbidden('This account is disabled');
      return user;
    },

    /** Changes the password; an account without one (provider sign-in only) sets its first. */
    async changePassword(userId: string, current: string, next: string): Promise<UserRow> {
      const user = await users.byId(userId);
      if (!user) throw notFound('User not found');
      if (user.password_hash && !(await verifyPassword(current, user.password_hash))) throw badRequest('The current password is not correct');
      if (current === next) throw badRequest('The new password must differ from the current one');
      await users.setPassword(userId, await hashPassword(next));
      return (await users.byId(userId))!;
    },

    /** Creates a one-time reset token (1 h) for an existing user; null when there is none. */
    async createReset(email: string): Promise<{ token: string; user: UserRow } | null> {
      const user = await users.byEmail(email);
      if (!user || user.disabled) return null;
      const token = randomToken(32);
      await meta.run('INSERT INTO nc_password_resets (token_hash, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)', [
        sha256(token),
        user.id,
        new Date(Date.now() + LIMITS.passwordResetTtlMs).toISOString(),
        nowIso(),
      ]);
      return { token, user };
    },

    async validateReset(token: string): Promise<string> {
      const row = await meta.get<{ user_id: string; expires_at: string; used_at: string | null }>(
        'SELECT user_id, expires_at, used_at FROM nc_password_resets WHERE token_hash = ?',
        [sha256(token)],
      );
      if (!row || row.used_at || row.expires_at < nowIso()) throw badRequest(MSG_RESET_INVALID);
      return row.user_id;
    },

    async resetPassword(token: string, password: string): Promise<UserRow> {
      // An unknown, used or expired link is refused before the (costly) hash; checked again below.
      await this.validateReset(token);
      const hash = await hashPassword(password);
      return meta.transaction(async (tx) => {
        const row = await tx.get<{ user_id: string; expires_at: string; used_at: string | null }>(
          'SELECT user_id, expires_at, used_at FROM nc_password_resets WHERE token_hash = ?',
          [sha256(token)],
        );
        if (!row || row.used_at || row.expires_at < nowIso()) throw badRequest(MSG_RESET_INVALID);
        await tx.run('UPDATE nc_password_resets SET used_at = ? WHERE token_hash = ?', [nowIso(), sha256(token)]);
        await usersRepo(tx).setPassword(row.user_id, hash);
        return (await usersRepo(tx).byId(row.user_id))!;
      });
    },
  };
}
