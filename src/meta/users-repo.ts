/** Users of this Tablo instance. Global roles are a comma list: `super,user`. */
import type { MetaStore } from './store';
import { newId, nowIso } from '../lib/ids';
import { invalidation, topicCache } from './invalidation';

/** How long a user row read for a request may be reused. */
const USER_CACHE_MS = 1000;

export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  firstname: string | null;
  lastname: string | null;
  roles: string;
  token_version: number;
  disabled: number;
  invite_token_hash: string | null;
  invite_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** A picture chosen by URL (an uploaded one lives in nc_user_pictures). */
  picture_url?: string | null;
  /** 1: may create projects and connect databases (granted by the Super Admin; the Super Admin always may). */
  may_create_projects?: number;
}

const repos = new WeakMap<MetaStore, ReturnType<typeof makeUsersRepo>>();

/** The users repository over a metadata store (one object per store, made on first use). */
export function usersRepo(meta: MetaStore) {
  let repo = repos.get(meta);
  if (!repo) repos.set(meta, (repo = makeUsersRepo(meta)));
  return repo;
}

function makeUsersRepo(meta: MetaStore) {
  const cache = topicCache<UserRow | undefined>(meta, 'user', USER_CACHE_MS);
  const bus = invalidation(meta);
  /** Drops the user's cached row here and in other instances (after the change is written). */
  const forget = (id: string) => bus.publish('user', id, meta);
  return {
    /** The cached row of byIdCached, if held: lets a request resolve its caller without awaiting. */
    peekCached: (id: string): UserRow | undefined => cache.get(id),
    /** byId for the hot path (every authenticated request); changes made here drop the entry. */
    async byIdCached(id: string): Promise<UserRow | undefined> {
      const hit = cache.get(id);
      if (hit) return hit;
      const row = await meta.get<UserRow>('SELECT * FROM nc_users WHERE id = ?', [id]);
      if (row) cache.set(id, row);
      return row;
    },
    count: async () => (await meta.get<{ n: number }>('SELECT COUNT(*) AS n FROM nc_users'))!.n,
    byId: (id: string) => meta.get<UserRow>('SELECT * FROM nc_users WHERE id = ?', [id]),
    /** By e-mail, whatever its case (SQLite: the column's NOCASE; PostgreSQL: lower(), as its unique index). */
    byEmail: (email: string) => meta.get<UserRow>('SELECT * FROM nc_users WHERE lower(email) = lower(?)', [email]),
    /** The user an open (unexpired) invite link was sent to: the latest one (kept on the user) or an earlier one. */
    byInviteHash: (hash: string) =>
      meta.get<UserRow>(
        `SELECT * FROM nc_users WHERE (invite_token_hash = ? AND invite_expires_at > ?)
           OR id IN (SELECT user_id FROM nc_invite_links WHERE token_hash = ? AND expires_at > ?)`,
        [hash, nowIso(), hash, nowIso()],
      ),
    async create(u: { email: string; passwordHash: string | null; roles: string; firstname?: string; lastname?: string }): Promise<UserRow> {
      const id = newId('us');
      const now = nowIso();
      await meta.run(
        'INSERT INTO nc_users (id, email, password_hash, firstname, lastname, roles, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [id, u.email, u.passwordHash, u.firstname ?? null, u.lastname ?? null, u.roles, now, now],
      );
      return (await meta.get<UserRow>('SELECT * FROM nc_users WHERE id = ?', [id]))!;
    },
    /** Drops a cached row (here and in other instances) after a change made elsewhere. */
    forget,
    /**
     * Sets a new password and bumps the token version so older sessions stop working; every reset
     * link still open for the account ends too (a second link mailed earlier must not reset it again).
     */
    async setPassword(id: string, hash: string) {
      const now = nowIso();
      const done = await meta.run(
        'UPDATE nc_users SET password_hash = ?, token_version = token_version + 1, invite_token_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE id = ?',
        [hash, now, id],
      );
      await meta.run('UPDATE nc_password_resets SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, id]);
      await meta.run('DELETE FROM nc_invite_links WHERE user_id = ?', [id]);
      await forget(id);
      return done;
    },
    async update(id: string, fields: { firstname?: string | null; lastname?: string | null }) {
      const done = await meta.run('UPDATE nc_users SET firstname = COALESCE(?, firstname), lastname = COALESCE(?, lastname), updated_at = ? WHERE id = ?', [
        fields.firstname ?? null,
        fields.lastname ?? null,
        nowIso(),
        id,
      ]);
      await forget(id);
      return done;
    },
  };
}
