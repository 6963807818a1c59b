/**
 * API tokens as the request path reads them: by hash, cached for a second and dropped here and in
 * every other instance when a token is disabled, renamed or deleted (topic `token`).
 */
import type { MetaStore } from './store';
import { invalidation, topicCache } from './invalidation';

/** What a request needs of an API token. */
export interface ApiTokenGrant {
  role: string;
  project_id: string | null;
  enabled: number;
  expires_at: string | null;
  created_by: string | null;
}

/** How long a token row read for a request may be reused. */
const TOKEN_CACHE_MS = 1000;

/** The token stored under `hash`, if any (only found rows are cached). */
export async function apiTokenByHash(meta: MetaStore, hash: string): Promise<ApiTokenGrant | undefined> {
  const cache = topicCache<ApiTokenGrant>(meta, 'token', TOKEN_CACHE_MS);
  const hit = cache.get(hash);
  if (hit) return hit;
  const row = await meta.get<ApiTokenGrant>('SELECT role, project_id, enabled, expires_at, created_by FROM nc_api_tokens WHERE token_hash = ?', [hash]);
  if (row) cache.set(hash, row);
  return row;
}

/** Drops a changed or deleted token here and in other instances. */
export const forgetApiToken = (meta: MetaStore, hash: string): Promise<void> => invalidation(meta).publish('token', hash, meta);
