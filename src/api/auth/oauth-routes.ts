/**
 * Sign in with Google, GitHub or any OpenID Connect provider. `GET /auth/{provider}` stores a
 * one-time state (with the PKCE verifier and nonce, 10 min) and redirects to the provider, which
 * returns the browser to `/user/authentication/callback`; that path hands (by a relative redirect, which
 * stays under a reverse proxy's path prefix) the code and state to the
 * web app, which calls `POST /auth/{provider}/genTokenByCode?code=&state=` and receives `{ token }`
 * and the refresh cookie as after a password sign-in. Signed-in users link more providers with
 * `POST /user/accounts/{provider}/link` (answers the URL to open) and see and unlink them at
 * `GET|DELETE /user/accounts[/{provider}]`.
 */
import { Elysia } from 'elysia';
import type { BaseContext } from '../../context';
import { badRequest, isAppError, notFound } from '../../lib/errors';
import { randomToken } from '../../lib/ids';
import { LIMITS } from '../../config/limits';
import { auditRepo } from '../../meta/audit-repo';
import { identitiesRepo } from '../../meta/identities-repo';
import { usersRepo } from '../../meta/users-repo';
import { callbackUrl, configuredProviders } from '../../auth/oauth/providers';
import { pkceChallenge, PROVIDER_IDS, type OAuthProvider } from '../../auth/oauth/provider';
import { signinWithIdentity } from '../../auth/oauth/oauth-accounts';
import { clientIp, requireUser } from '../../http/principal';
import { RateLimiter } from '../../http/rate-limit';
import { issueSession } from './session';
import { startedHere, stateCookie } from '../../auth/oauth/state-cookie';

export const MSG_BAD_STATE = 'This sign-in link is invalid or has expired, please try again';

/** The provider sign-in, callback and linked-account routes. */
export function oauthRoutes(ctx: BaseContext) {
  const providers = configuredProviders(ctx.config);
  const ids = identitiesRepo(ctx.meta);
  const audit = auditRepo(ctx.meta);
  const redirectUri = callbackUrl(ctx.config);
  const limiter = new RateLimiter(LIMITS.authRateLimit.max, LIMITS.authRateLimit.windowMs, ctx.meta);

  const providerOf = (id: string): OAuthProvider => {
    // Other paths under /auth/ (a GET of a POST route) are simply not found.
    if (!PROVIDER_IDS.includes(id as never)) throw notFound('Not found');
    const p = providers.get(id as never);
    if (!p) throw notFound(`Sign-in with ${id} is not configured on this server`);
    return p;
  };

  /** Stores a new state for the provider and answers it with the provider's authorize URL. */
  async function start(p: OAuthProvider, linkUserId: string | null): Promise<{ url: string; state: string }> {
    // The provider id leads the state so the callback page knows whom to ask.
    const state = `${p.id}.${randomToken(24)}`;
    const verifier = randomToken(48);
    const nonce = randomToken(16);
    await ids.saveState(state, {
      provider: p.id,
      code_verifier: verifier,
      nonce,
      link_user_id: linkUserId,
      expires_at: new Date(Date.now() + LIMITS.oauthStateTtlMs).toISOString(),
    });
    return { url: await reported(p, p.authorizeUrl({ state, redirectUri, codeChallenge: pkceChallenge(verifier), nonce })), state };
  }

  /**
   * A provider call; one that could not reach the provider is logged with the reason (the answer, a
   * 503, only says it could not be reached), so that the administrator sees why.
   */
  async function reported<T>(p: OAuthProvider, call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (e) {
      const cause = (e as { cause?: unknown }).cause;
      if (isAppError(e) && e.status === 503 && cause) ctx.log.warn(`sign-in with ${p.name}: ${e.message.replace(/, please try again later$/, '')}: ${String((cause as Error).message ?? cause).split('\n')[0]}`);
      throw e;
    }
  }

  return new Elysia({ name: 'oauth' })
    .get('/user/authentication/callback', ({ request, redirect }) => redirect(`../../#/user/authentication/callback${new URL(request.url).search}`, 302))
    .get('/auth/:provider', async ({ params, request, set, redirect }) => {
      const { url, state } = await start(providerOf(params.provider), null);
      set.headers['set-cookie'] = stateCookie(ctx.config, request, state);
      return redirect(url, 302);
    })
    .post('/auth/:provider/genTokenByCode', async ({ params, query, set, request, server }) => {
      const p = providerOf(params.provider);
      const ip = clientIp(ctx, request, server);
      const code = typeof query.code === 'string' ? query.code : '';
      const state = typeof query.state === 'string' ? query.state : '';
      await limiter.hit(`oauth:ip:${ip}`);
      try {
        if (!code || !state) throw badRequest('code and state are required');
        // Only the browser that started this sign-in finishes it (state-cookie.ts).
        if (!startedHere(request, state)) throw badRequest(MSG_BAD_STATE);
        const saved = await ids.takeState(state);
        if (!saved || saved.provider !== p.id) throw badRequest(MSG_BAD_STATE);
        const ident = await reported(p, p.identify({ code, redirectUri, codeVerifier: saved.code_verifier, nonce: saved.nonce }));
        const { user, outcome } = await signinWithIdentity(ctx.meta, { allowSignup: ctx.config.allowSignup }, p, ident, saved.link_user_id);
        await audit.write({ op_type: 'AUTHENTICATION', description: `${outcome} with ${p.name}`, user_email: user.email, ip });
        if (saved.link_user_id) return { msg: `Your ${p.name} account is linked`, linked: p.id };
        return issueSession(ctx, user, set, request);
      } catch (e) {
        await audit.write({ op_type: 'AUTHENTICATION', description: `failed sign-in with ${p.name}: ${(e as Error).message}`, ip });
        throw e;
      }
    })
    .get('/user/accounts', async ({ request }) => {
      const actor = await requireUser(ctx, request);
      if (!actor.userId) throw badRequest('Only a user account has linked accounts');
      const user = (await usersRepo(ctx.meta).byId(actor.userId))!;
      const linked = await ids.ofUser(user.id);
      return {
        hasPassword: !!user.password_hash,
        providers: [...providers.values()].map((p) => ({ id: p.id, name: p.name })),
        list: linked.map((i) => ({ provider: i.provider, name: providers.get(i.provider as never)?.name ?? i.provider, email: i.email, createdAt: i.created_at })),
      };
    })
    .post('/user/accounts/:provider/link', async ({ request, params, set }) => {
      const actor = await requireUser(ctx, request);
      if (!actor.userId) throw badRequest('Only a user account can link accounts');
      const { url, state } = await start(providerOf(params.provider), actor.userId);
      set.headers['set-cookie'] = stateCookie(ctx.config, request, state);
      return { url };
    })
    .delete('/user/accounts/:provider', async ({ request, params, server }) => {
      const actor = await requireUser(ctx, request);
      if (!actor.userId) throw badRequest('Only a user account has linked accounts');
      const user = (await usersRepo(ctx.meta).byId(actor.userId))!;
      const linked = await ids.ofUser(user.id);
      if (!linked.some((i) => i.provider === params.provider)) throw notFound('This account is not linked');
      if (!user.password_hash && linked.length < 2) throw badRequest('Set a password before you unlink your only way to sign in');
      await ids.unlink(params.provider, user.id);
      const name = providers.get(params.provider as never)?.name ?? params.provider;
      await audit.write({ op_type: 'AUTHENTICATION', description: `${name} account unlinked`, user_email: user.email, ip: clientIp(ctx, request, server) });
      return { msg: `Your ${name} account is unlinked` };
    });
}
