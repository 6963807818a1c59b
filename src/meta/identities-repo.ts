/** Accounts at sign-in providers linked to users, and the authorisations started with them. */
import type { MetaStore } from './store';
import { nowIso, sha256 } from '../lib/ids';

/** An account at a provider, linked to a user. */
export interface IdentityRow {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: string;
}

/** A started authorisation: what the code exchange needs back. */
export interface OAuthStateRow {
  provider: string;
  code_verifier: string;
  nonce: string;
  link_user_id: string | null;
  expires_at: string;
}

/** Linked identities and pending authorisation states over the metadata store. */
export function identitiesRepo(meta: MetaStore) {
  return {
    find: (provider: string, subject: string) =>
      meta.get<IdentityRow>('SELECT * FROM nc_user_identities WHERE provider = ? AND subject = ?', [provider, subject]),
    ofUser: (userId: string) => meta.all<IdentityRow>('SELECT * FROM nc_user_identities WHERE user_id = ? ORDER BY created_at', [userId]),
    link: (provider: string, subject: string, userId: string, email: string | null) =>
      meta.run('INSERT INTO nc_user_identities (provider, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?)', [provider, subject, userId, email, nowIso()]),
    unlink: (provider: string, userId: string) => meta.run('DELETE FROM nc_user_identities WHERE provider = ? AND user_id = ?', [provider, userId]),

    /** Records a started authorisation under the hash of its state. */
    async saveState(state: string, row: OAuthStateRow): Promise<void> {
      await meta.run('DELETE FROM nc_oauth_states WHERE expires_at < ?', [nowIso()]);
      await meta.run(
        'INSERT INTO nc_oauth_states (state_hash, provider, code_verifier, nonce, link_user_id, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [sha256(state), row.provider, row.code_verifier, row.nonce, row.link_user_id, row.expires_at, nowIso()],
      );
    },
    /** Takes a state once: the row is deleted whether or not it is still valid. */
    async takeState(state: string): Promise<OAuthStateRow | undefined> {
      return meta.transaction(async (tx) => {
        const row = await tx.get<OAuthStateRow>('SELECT provider, code_verifier, nonce, link_user_id, expires_at FROM nc_oauth_states WHERE state_hash = ?', [sha256(state)]);
        if (row) await tx.run('DELETE FROM nc_oauth_states WHERE state_hash = ?', [sha256(state)]);
        return row && row.expires_at >= nowIso() ? row : undefined;
      });
    },
  };
}
