/**
 * API tokens of projects, stored hashed: each belongs to one project (`project_id`), carries a role
 * there, and remembers who made it (`created_by`, or `by_master` for the master key) so that a
 * member's token acts with at most the member's current role (src/http/token-actor.ts).
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';
import { invalidation, topicCache } from './invalidation';

export interface ApiTokenRow {
  id: string;
  project_id: string | null;
  description: string;
  token_hash: string;
  role: string;
  expires_at: string | null;
  enabled: number;
  created_by: string | null;
  created_at: string;
  /** 1: made with the master key (keeps its own role). */
  by_master: number;
}

/** The API tokens repository over a metadata store. */
export function apiTokensRepo(meta: MetaStore) {
  return {
    /** The token whose hash this is (any project). */
    byHash: (hash: string) => meta.get<ApiTokenRow>('SELECT * FROM nc_api_tokens WHERE token_hash = ?', [hash]),
    /** Stores a new token of a project. */
    insert: (t: { id: string; projectId: string; description: string; hash: string; role: string; expiresAt: string | null; createdBy: string | null; byMaster: boolean }) =>
      meta.run(
        'INSERT INTO nc_api_tokens (id, project_id, description, token_hash, role, expires_at, enabled, created_by, created_at, by_master) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)',
        [t.id, t.projectId, t.description, t.hash, t.role, t.expiresAt, t.createdBy, nowIso(), t.byMaster ? 1 : 0],
      ),
  };
}


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
