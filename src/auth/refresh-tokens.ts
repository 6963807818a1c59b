/**
 * Refresh tokens: stored hashed, grouped in families, rotated on every use. Presenting a token
 * that was already rotated (a stolen copy) revokes its whole family. A token revoked without being
 * rotated (its session signed out, or every session ended by a password change or reset) is only
 * refused: it was the newest of its family, so no copy of it was ever used. A token rotated moments ago
 * (LIMITS.refreshRetryGraceMs) whose successor was never used is a retry whose answer was lost (an outage
 * after the rotation committed, two tabs refreshing at once): it rotates again from that successor, which
 * ends it. A copy used in that window is still caught: the other holder's token, once it comes back after
 * the grace or after its successor was used, ends the whole sign-in.
 */
import type { MetaStore } from '../meta/store';
import { LIMITS } from '../config/limits';
import { newId, nowIso, randomToken, sha256 } from '../lib/ids';
import { unauthorized } from '../lib/errors';
import { sessionsRepo } from './sessions';

interface Row {
  id: string;
  user_id: string;
  family_id: string;
  expires_at: string;
  revoked_at: string | null;
  /** The token issued in its place by a rotation (null when its session was ended instead). */
  replaced_by: string | null;
  created_at: string;
}

/** The answer to a token whose session was ended (signed out, password changed): no reuse, nothing more to end. */
export const MSG_SESSION_ENDED = 'This session has ended: sign in again';

/** Revokes `row`, naming the token issued in its place, and issues that token. */
async function rotateFrom(tx: MetaStore, row: Row): Promise<{ userId: string; token: string; familyId: string }> {
  const next = randomToken(32);
  const nextId = newId('rt');
  await tx.run('UPDATE nc_refresh_tokens SET revoked_at = ?, replaced_by = ? WHERE id = ?', [nowIso(), nextId, row.id]);
  await tx.run(
    'INSERT INTO nc_refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    [nextId, row.user_id, row.family_id, sha256(next), new Date(Date.now() + LIMITS.refreshTokenTtlMs).toISOString(), nowIso()],
  );
  return { userId: row.user_id, token: next, familyId: row.family_id };
}

/** The successor of a token rotated within the retry grace, when it is still unused and live (see the file's comment). */
async function unusedSuccessor(tx: MetaStore, row: Row): Promise<Row | undefined> {
  if (!row.revoked_at || Date.now() - Date.parse(row.revoked_at) > LIMITS.refreshRetryGraceMs) return undefined;
  const next = await tx.get<Row>('SELECT * FROM nc_refresh_tokens WHERE id = ?', [row.replaced_by]);
  return next && !next.revoked_at && next.expires_at >= nowIso() ? next : undefined;
}

export function refreshTokens(meta: MetaStore) {
  async function issue(userId: string, familyId = newId('rf')): Promise<string> {
    sessionsRepo(meta).forget(familyId);
    const token = randomToken(32);
    await meta.run(
      'INSERT INTO nc_refresh_tokens (id, user_id, family_id, token_hash, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      [newId('rt'), userId, familyId, sha256(token), new Date(Date.now() + LIMITS.refreshTokenTtlMs).toISOString(), nowIso()],
    );
    return token;
  }
  return {
    issue,
    /** Returns the user id, the session (family) and a new token of the same family; 401 on anything wrong. */
    async rotate(token: string): Promise<{ userId: string; token: string; familyId: string }> {
      const out = await meta.transaction(async (tx): Promise<{ reusedFamily: string; userId: string } | { userId: string; token: string; familyId: string }> => {
        const row = await tx.get<Row>('SELECT * FROM nc_refresh_tokens WHERE token_hash = ?', [sha256(token)]);
        if (!row) throw unauthorized('Invalid refresh token');
        if (row.revoked_at) {
          // Rotated (it names the token issued in its place): a retry whose answer was lost, or a copy used
          // again. Otherwise its session was ended (signed out, password changed).
          if (!row.replaced_by) throw unauthorized(MSG_SESSION_ENDED);
          const successor = await unusedSuccessor(tx, row);
          if (!successor) return { reusedFamily: row.family_id, userId: row.user_id };
          return rotateFrom(tx, successor);
        }
        if (row.expires_at < nowIso()) throw unauthorized('Refresh token expired');
        return rotateFrom(tx, row);
      });
      if ('reusedFamily' in out) {
        // A rotated token came back: someone holds a copy. End every session of that sign-in.
        // The session's access JWTs end with it (sessions.ts), not only its refresh tokens.
        await sessionsRepo(meta).revoke(out.reusedFamily);
        throw Object.assign(unauthorized('Refresh token already used; all sessions of this sign-in were ended'), { reusedBy: out.userId });
      }
      return out;
    },
    /** Ends every session of a user (password change or reset: the token version moves on too). */
    revokeAllForUser: (userId: string) =>
      meta.run('UPDATE nc_refresh_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [nowIso(), userId]),
    /**
     * Signs out the session of one refresh token: its family is revoked, which ends the session's
     * access JWTs too; answers the id of the user whose live token it was (undefined when none).
     */
    async revokeToken(token: string): Promise<string | undefined> {
      const row = await meta.get<Row>('SELECT * FROM nc_refresh_tokens WHERE token_hash = ? AND revoked_at IS NULL', [sha256(token)]);
      if (!row) return undefined;
      await sessionsRepo(meta).revoke(row.family_id);
      return row.user_id;
    },
  };
}
