/**
 * Sign-in sessions: each sign-in starts a refresh-token family, and the session JWTs issued for it
 * name that family (`sid`). A session is live while its family holds a refresh token that is
 * neither revoked nor expired; signing out, or presenting a refresh token that was already rotated,
 * revokes the family and so ends its access JWTs at once, not only its refresh tokens. The answer is
 * kept for a second (like users and projects) so the hot path reads it without awaiting; a
 * revocation made here is seen at once, one made by another instance within a second.
 */
import type { MetaStore } from '../meta/store';
import { nowIso } from '../lib/ids';
import { cacheFor, type TtlCache } from '../lib/ttl-cache';

const caches = new WeakMap<MetaStore, TtlCache<string, boolean>>();
/** How long the liveness of a session read for a request may be reused. */
const CACHE_MS = 1000;

const repos = new WeakMap<MetaStore, ReturnType<typeof makeSessions>>();

/** The sessions of a metadata store (one object per store). */
export function sessionsRepo(meta: MetaStore) {
  let repo = repos.get(meta);
  if (!repo) repos.set(meta, (repo = makeSessions(meta)));
  return repo;
}

function makeSessions(meta: MetaStore) {
  const live = cacheFor(caches, meta.root ?? meta, CACHE_MS);
  return {
    /** Whether the session is live, when known without awaiting. */
    peekLive: (sid: string): boolean | undefined => live.get(sid),
    /** Whether the session still holds a live refresh token. */
    async isLive(sid: string): Promise<boolean> {
      const hit = live.get(sid);
      if (hit !== undefined) return hit;
      const row = await meta.get('SELECT 1 AS x FROM nc_refresh_tokens WHERE family_id = ? AND revoked_at IS NULL AND expires_at > ? LIMIT 1', [sid, nowIso()]);
      live.set(sid, !!row);
      return !!row;
    },
    /** Ends a session: its refresh tokens are revoked and its JWTs refused from now on. */
    async revoke(sid: string): Promise<void> {
      live.set(sid, false);
      await meta.run('UPDATE nc_refresh_tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE family_id = ?', [nowIso(), sid]);
      live.set(sid, false);
    },
    /** Forgets what is known of a session (a new one was started with this id). */
    forget: (sid: string) => live.delete(sid),
  };
}
