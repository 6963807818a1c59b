/**
 * Who is calling: `xc-auth` (session JWT), `xc-token` / `Authorization: Bearer` (API token),
 * `xc-master-key` (masterKey mode), else a guest. Auth type `none` makes every caller an admin.
 * Resolved once per request. A header that is present but wrong answers 401, never guest.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BaseContext } from '../context';
import type { Actor } from '../lib/actor';
import { GUEST } from '../lib/actor';
import { badRequest, forbidden, unauthorized } from '../lib/errors';
import { authTypeOf } from '../config/config';
import { verifiedSession, verifySession } from '../auth/jwt';
import { usersRepo, type UserRow } from '../meta/users-repo';
import { projectsRepo } from '../meta/projects-repo';
import { sessionsRepo } from '../auth/sessions';
import { peekTokenActor, tokenActor } from './token-actor';
import { MasterKeyGuard } from './master-key-guard';

/** Project roles a preview may switch to. */
export const PREVIEW_ROLES = ['editor', 'commenter', 'viewer', 'guest'];

/**
 * The role named by `xc-preview`, if any. An unknown one answers 400 naming the roles allowed: ignoring
 * it would show a caller their own rights while they believe they see another role's.
 */
function previewOf(h: Headers): string | undefined {
  const preview = h.get('xc-preview') ?? undefined;
  if (preview === undefined || preview === '') return undefined;
  if (!PREVIEW_ROLES.includes(preview)) throw badRequest(`Unknown preview role '${preview}': allowed are ${PREVIEW_ROLES.join(', ')}`);
  return preview;
}

const cache = new WeakMap<Request, Promise<Actor>>();

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const masterKeyGuards = new WeakMap<BaseContext['config'], MasterKeyGuard>();

/** 401 'Invalid master key' unless `given` is the master key; 429 past too many wrong ones from the address. */
export function assertMasterKey(ctx: BaseContext, request: Request, given: string): void {
  let guard = masterKeyGuards.get(ctx.config);
  if (!guard) masterKeyGuards.set(ctx.config, (guard = new MasterKeyGuard()));
  const ip = clientIp(ctx, request);
  guard.check(ip);
  if (ctx.config.adminSecret && sameSecret(given, ctx.config.adminSecret)) return;
  guard.failed(ip);
  throw unauthorized('Invalid master key');
}

/** The caller of this request (cached per Request). */
export function resolveActor(ctx: BaseContext, request: Request): Promise<Actor> {
  let p = cache.get(request);
  if (!p) cache.set(request, (p = resolve(ctx, request)));
  return p;
}

/** The caller, who must be signed in (user, API token or master key). */
export async function requireUser(ctx: BaseContext, request: Request): Promise<Actor> {
  const a = await resolveActor(ctx, request);
  if (a.kind === 'guest') throw unauthorized('Not signed in');
  return a;
}

/**
 * The caller of a session request when every look-up it needs is cached (verified token, user row),
 * without awaiting; undefined sends the request the usual way (resolveActor), which also answers
 * every refusal. The user row is the one resolveActor would use, so a password change, a new token
 * version or a disabled account ends the session here at the same moment.
 */
export function cachedActor(ctx: BaseContext, request: Request): Actor | undefined {
  const h = request.headers;
  if (authTypeOf(ctx.config) === 'none' || h.get('xc-master-key')) return undefined;
  const jwt = h.get('xc-auth');
  if (!jwt) {
    const token = apiTokenOf(h);
    return token ? peekTokenActor(ctx, token) : undefined;
  }
  const claims = verifiedSession(ctx.secrets.jwtSecret, jwt);
  const user = claims && usersRepo(ctx.meta).peekCached(claims.id);
  if (!claims || !user || user.disabled || user.token_version !== claims.v) return undefined;
  // A signed-out session (or one whose refresh token was reused) ends its JWTs too.
  if (claims.sid !== undefined && sessionsRepo(ctx.meta).peekLive(claims.sid) !== true) return undefined;
  const preview = h.get('xc-preview');
  // An unknown role goes the usual way, which answers it.
  if (preview && !PREVIEW_ROLES.includes(preview)) return undefined;
  return userActor(user, preview || undefined);
}

/** The actor of a signed-in user row. */
function userActor(user: UserRow, previewAs: string | undefined): Actor {
  const roles = user.roles.split(',').filter(Boolean);
  const superAdmin = roles.includes('super');
  return { kind: 'user', userId: user.id, email: user.email, roles, superAdmin, previewAs, mayCreateProjects: superAdmin || !!user.may_create_projects };
}

async function resolve(ctx: BaseContext, request: Request): Promise<Actor> {
  const h = request.headers;
  const previewAs = previewOf(h);
  if (authTypeOf(ctx.config) === 'none') return { kind: 'master', roles: ['super', 'user'], superAdmin: true };

  const masterKey = h.get('xc-master-key');
  if (masterKey) {
    assertMasterKey(ctx, request, masterKey);
    return { kind: 'master', roles: ['super', 'user'], superAdmin: true };
  }

  const jwt = h.get('xc-auth');
  if (jwt) {
    const claims = await verifySession(ctx.secrets.jwtSecret, jwt);
    const user = await usersRepo(ctx.meta).byIdCached(claims.id);
    // A disabled account says so (the page signing out tells the user why, not that a token expired).
    if (user?.disabled) throw unauthorized('This account is disabled');
    if (!user || user.token_version !== claims.v) throw unauthorized('Token expired please login to continue');
    if (claims.sid !== undefined && !(await sessionsRepo(ctx.meta).isLive(claims.sid))) throw unauthorized('Token expired please login to continue');
    return userActor(user, previewAs);
  }

  const apiToken = apiTokenOf(h);
  if (apiToken) return tokenActor(ctx, apiToken);
  return GUEST;
}

/** The API token of a request: `xc-token`, or `Authorization: Bearer`. */
function apiTokenOf(h: Headers): string | null {
  const token = h.get('xc-token');
  if (token) return token;
  const bearer = h.get('authorization');
  return bearer && bearer.length > 7 && bearer.slice(0, 7).toLowerCase() === 'bearer ' ? bearer.slice(7).trim() : null;
}

export { useSocketServer } from './client-address';
import { clientAddress } from './client-address';

/** Client IP for rate limits and the audit log (X-Forwarded-For only from NC_TRUSTED_PROXIES). */
export function clientIp(ctx: BaseContext, request: Request, server?: { requestIP(r: Request): { address: string } | null } | null): string {
  return clientAddress(ctx.config, request, server);
}

/** Refuses (403) an API token on any project but its own. */
export function assertTokenProject(actor: Actor, projectId: string): void {
  if (actor.kind === 'token' && actor.tokenProjectId !== projectId) throw forbidden('This API token belongs to another project');
}

/**
 * projectRolesOf when it needs no await (cached membership), else undefined; API tokens always
 * take the usual way, which refuses them on other projects.
 */
export function cachedProjectRoles(ctx: BaseContext, actor: Actor, projectId: string): string[] | undefined {
  // A token of this project carries its (capped) role; one of another project goes the usual way, which refuses it.
  if (actor.kind === 'token') return actor.tokenProjectId === projectId ? actor.roles : undefined;
  if (actor.kind === 'user' && actor.userId) return projectsRepo(ctx.meta).peekRoles(projectId, actor.userId);
  return [];
}

/**
 * The caller's roles in one project: membership for users, the token's (capped) role for an API
 * token of this project; an API token of another project is refused with 403.
 */
export async function projectRolesOf(ctx: BaseContext, actor: Actor, projectId: string): Promise<string[]> {
  if (actor.kind === 'token') {
    assertTokenProject(actor, projectId);
    return actor.roles;
  }
  if (actor.kind === 'user' && actor.userId) return projectsRepo(ctx.meta).memberRoles(projectId, actor.userId);
  return [];
}
