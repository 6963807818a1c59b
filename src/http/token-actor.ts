/**
 * The caller behind an API token. A token belongs to the one project it was made in and carries a
 * role there; a token made by a user acts with at most that user's current role in the project
 * (the lower of the two), so a member who is demoted, removed or disabled takes their tokens' rights
 * down with them. Tokens made with the master key (or by a Super Admin) keep their own role.
 */
import type { BaseContext } from '../context';
import type { Actor } from '../lib/actor';
import { unauthorized } from '../lib/errors';
import { nowIso, sha256 } from '../lib/ids';
import { usersRepo } from '../meta/users-repo';
import { projectsRepo } from '../meta/projects-repo';
import { apiTokensRepo } from '../meta/api-tokens-repo';
import type { MetaStore } from '../meta/store';
import { cacheFor, type TtlCache } from '../lib/ttl-cache';
import { invalidation } from '../meta/invalidation';

/**
 * Callers of API tokens resolved in the last second, by token: requests of a script or an
 * integration skip the hash and the metadata reads. A change through this process (a token revoked,
 * disabled or changed, a member's role changed or removed) forgets them at once; other instances
 * sharing the metadata store see it within TOKEN_CACHE_MS.
 */
const TOKEN_CACHE_MS = 1000;
const tokenCaches = new WeakMap<MetaStore, TtlCache<string, { actor: Actor; expiresAt: string | null }>>();
/** Stores whose token cache listens to other instances' token changes. */
const listening = new WeakSet<MetaStore>();
function tokenCache(meta: MetaStore) {
  const root = meta.root ?? meta;
  const cache = cacheFor(tokenCaches, root, TOKEN_CACHE_MS);
  if (!listening.has(root)) {
    listening.add(root);
    // A token disabled, changed or deleted on another instance (topic `token`): forget them all here.
    invalidation(root).subscribe('token', () => cache.clear());
  }
  return cache;
}

/** The caller of an API token when resolved within the last second (and not expired since), else undefined. */
export function peekTokenActor(ctx: BaseContext, token: string): Actor | undefined {
  const hit = tokenCache(ctx.meta).get(token);
  if (!hit || (hit.expiresAt && hit.expiresAt < nowIso())) return undefined;
  return hit.actor;
}

/** Forgets every cached token caller (after a token, a membership or a user changed). */
export function forgetTokenActors(meta: MetaStore): void {
  tokenCache(meta).clear();
}

/** Project roles from the most to the least rights. */
const RANK = ['guest', 'viewer', 'commenter', 'editor', 'creator', 'owner'];
const rank = (role: string) => RANK.indexOf(role);

/** The highest of `roles` (undefined when none is a project role). */
export function highestRole(roles: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const r of roles) if (rank(r) >= 0 && (best === undefined || rank(r) > rank(best))) best = r;
  return best;
}

/** The lower of a token's role and its maker's best role (undefined: the maker has none). */
export function cappedRole(tokenRole: string, makerRoles: readonly string[]): string | undefined {
  const best = highestRole(makerRoles);
  if (best === undefined || best === 'guest') return undefined;
  return rank(tokenRole) <= rank(best) ? tokenRole : best;
}

/** Resolves an API token to its actor; 401 when unknown, disabled or expired. */
export async function tokenActor(ctx: BaseContext, token: string): Promise<Actor> {
  const row = await apiTokensRepo(ctx.meta).byHash(sha256(token));
  if (!row || !row.enabled || !row.project_id) throw unauthorized('Invalid API token');
  if (row.expires_at && row.expires_at < nowIso()) throw unauthorized('API token expired');
  let role: string | undefined = row.role;
  if (!row.by_master) {
    const maker = row.created_by ? await usersRepo(ctx.meta).byIdCached(row.created_by) : undefined;
    if (!maker || maker.disabled) role = undefined;
    else if (!maker.roles.split(',').includes('super')) role = cappedRole(row.role, await projectsRepo(ctx.meta).memberRoles(row.project_id, maker.id));
  }
  const actor: Actor = { kind: 'token', roles: role ? [role] : [], tokenProjectId: row.project_id, tokenId: row.id };
  tokenCache(ctx.meta).set(token, { actor, expiresAt: row.expires_at });
  return actor;
}
