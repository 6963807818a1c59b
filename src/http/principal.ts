/**
 * Who is calling: `xc-auth` (session JWT), `xc-token` / `Authorization: Bearer` (API token),
 * `xc-master-key` (masterKey mode), else a guest. Auth type `none` makes every caller an admin.
 * Resolved once per request. A header that is present but wrong answers 401, never guest.
 */
import { timingSafeEqual } from 'node:crypto';
import type { BaseContext } from '../context';
import type { Actor } from '../lib/actor';
import { GUEST } from '../lib/actor';
import { unauthorized } from '../lib/errors';
import { nowIso, sha256 } from '../lib/ids';
import { authTypeOf } from '../config/config';
import { verifiedSession, verifySession } from '../auth/jwt';
import { usersRepo } from '../meta/users-repo';
import { projectsRepo } from '../meta/projects-repo';
import { apiTokenByHash } from '../meta/api-tokens-repo';

/** Project roles a preview may switch to. */
export const PREVIEW_ROLES = ['editor', 'commenter', 'viewer', 'guest'];

const cache = new WeakMap<Request, Promise<Actor>>();

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

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
  if (!jwt) return undefined;
  const claims = verifiedSession(ctx.secrets.jwtSecret, jwt);
  const user = claims && usersRepo(ctx.meta).peekCached(claims.id);
  if (!claims || !user || user.disabled || user.token_version !== claims.v) return undefined;
  const preview = h.get('xc-preview') ?? undefined;
  const previewAs = preview && PREVIEW_ROLES.includes(preview) ? preview : undefined;
  const roles = user.roles.split(',').filter(Boolean);
  return { kind: 'user', userId: user.id, email: user.email, roles, superAdmin: roles.includes('super'), previewAs };
}

async function resolve(ctx: BaseContext, request: Request): Promise<Actor> {
  const h = request.headers;
  const preview = h.get('xc-preview') ?? undefined;
  const previewAs = preview && PREVIEW_ROLES.includes(preview) ? preview : undefined;
  if (authTypeOf(ctx.config) === 'none') return { kind: 'master', roles: ['super', 'user'], superAdmin: true };

  const masterKey = h.get('xc-master-key');
  if (masterKey) {
    if (!ctx.config.adminSecret || !sameSecret(masterKey, ctx.config.adminSecret)) throw unauthorized('Invalid master key');
    return { kind: 'master', roles: ['super', 'user'], superAdmin: true };
  }

  const jwt = h.get('xc-auth');
  if (jwt) {
    const claims = await verifySession(ctx.secrets.jwtSecret, jwt);
    const user = await usersRepo(ctx.meta).byIdCached(claims.id);
    if (!user || user.disabled || user.token_version !== claims.v) throw unauthorized('Token expired please login to continue');
    const roles = user.roles.split(',').filter(Boolean);
    return { kind: 'user', userId: user.id, email: user.email, roles, superAdmin: roles.includes('super'), previewAs };
  }

  const bearer = h.get('authorization');
  const apiToken = h.get('xc-token') ?? (bearer?.toLowerCase().startsWith('bearer ') ? bearer.slice(7).trim() : null);
  if (apiToken) {
    const row = await apiTokenByHash(ctx.meta, sha256(apiToken));
    if (!row || !row.enabled) throw unauthorized('Invalid API token');
    if (row.expires_at && row.expires_at < nowIso()) throw unauthorized('API token expired');
    return { kind: 'token', roles: [row.role], tokenProjectId: row.project_id ?? undefined };
  }
  return GUEST;
}

type SocketServer = { requestIP(r: Request): { address: string } | null };

/**
 * The server whose sockets requests arrive on: asked for a request's address only when one is
 * needed (sign-in, audit), instead of recording every request's address up front.
 */
let socketServer: SocketServer | null = null;
/** Records the listening server (main.ts). */
export function useSocketServer(server: SocketServer | null): void {
  socketServer = server;
}

/** Client IP: the first X-Forwarded-For entry, else the socket address. */
export function clientIp(request: Request, server?: SocketServer | null): string {
  const fwd = request.headers.get('x-forwarded-for');
  if (fwd) return fwd.split(',')[0]!.trim();
  return server?.requestIP(request)?.address ?? socketServer?.requestIP(request)?.address ?? 'unknown';
}

/** projectRolesOf when it needs no await (API tokens, cached membership), else undefined. */
export function cachedProjectRoles(ctx: BaseContext, actor: Actor, projectId: string): string[] | undefined {
  if (actor.kind === 'token') return !actor.tokenProjectId || actor.tokenProjectId === projectId ? actor.roles : [];
  if (actor.kind === 'user' && actor.userId) return projectsRepo(ctx.meta).peekRoles(projectId, actor.userId);
  return [];
}

/** The caller's roles in one project: membership for users, the token's role for API tokens. */
export async function projectRolesOf(ctx: BaseContext, actor: Actor, projectId: string): Promise<string[]> {
  if (actor.kind === 'token') return !actor.tokenProjectId || actor.tokenProjectId === projectId ? actor.roles : [];
  if (actor.kind === 'user' && actor.userId) return projectsRepo(ctx.meta).memberRoles(projectId, actor.userId);
  return [];
}
