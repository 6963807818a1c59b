/** Who is calling: resolved once per request by http/, passed to data/ which enforces rights. */
export interface Actor {
  kind: 'user' | 'token' | 'master' | 'guest' | 'shared';
  userId?: string;
  email?: string;
  /** Global roles (super, user) merged with the project roles (owner, creator, editor, ...). */
  roles: string[];
  /** Role an owner/creator previews as (xc-preview), already validated. */
  previewAs?: string;
  /** Super Admin (the first user). */
  superAdmin?: boolean;
  /** For API tokens: the one project they belong to (refused on every other project). */
  tokenProjectId?: string;
  /** For API tokens: the token's id. */
  tokenId?: string;
  /** May create projects, test connections and add databases (granted by the Super Admin). */
  mayCreateProjects?: boolean;
}

/**
 * Whose personal items (SQL Client and API Client history, kept results, imports) a caller owns:
 * the user, each API token on its own, else the kind of caller (master key).
 */
export const ownerKey = (actor: Actor): string => actor.userId ?? (actor.kind === 'token' && actor.tokenId ? `token:${actor.tokenId}` : actor.kind);

export const GUEST: Actor = { kind: 'guest', roles: ['guest'] };
