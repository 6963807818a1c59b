/**
 * Auth and user routes (spec section 7, api-contract section 4): auth type, sign-up (and the e-mail
 * of an invite link), sign-in, refresh, me, password change / forgot / reset, master key check, UI abilities.
 */
import { mailOrLog } from '../../plugins/deliver';
import { resetMail } from '../../plugins/mail-templates';
import { mailLanguageOf } from '../../lib/mail-language';
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { BaseContext } from '../../context';
import { authTypeOf } from '../../config/config';
import { LIMITS } from '../../config/limits';
import { badRequest, isAppError, unauthorized } from '../../lib/errors';
import { accounts } from '../../auth/accounts';
import { signSession } from '../../auth/jwt';
import { emailField, parseBody, passwordField } from '../../auth/passwords';
import { refreshTokens } from '../../auth/refresh-tokens';
import { auditRepo } from '../../meta/audit-repo';
import type { UserRow } from '../../meta/users-repo';
import { projectsRepo } from '../../meta/projects-repo';
import { RateLimiter } from '../../http/rate-limit';
import { assertMasterKey, clientIp, requireUser, resolveActor } from '../../http/principal';
import { readCookie, REFRESH_COOKIE, refreshCookie } from './cookies';
import { KNOWN_COOKIE, SigninGuard } from '../../http/signin-guard';
import { cameOverHttps } from '../../http/client-address';
import { requestPathOf } from '../../http/link-base';
import { sessionsRepo } from '../../auth/sessions';
import { verifiedSession } from '../../auth/jwt';
import { issueSession } from './session';
import { configuredProviders } from '../../auth/oauth/providers';
import { pictureOf } from './profile-routes';
import { sessionsEnded } from '../../auth/session-events';

const SignupBody = z.object({
  email: emailField,
  password: passwordField,
  firstname: z.string().max(100).optional(),
  lastname: z.string().max(100).optional(),
  token: z.string().optional(),
});
const SigninBody = z.object({ email: emailField, password: z.string({ error: 'Password is required' }).min(1, 'Password is required') });
const ForgotBody = z.object({ email: emailField });
const ResetBody = z.object({ password: passwordField });
const ChangeBody = z.object({
  /** Not needed by an account that signs in only with a provider and has no password yet. */
  currentPassword: z.string({ error: 'Password is required' }).optional(),
  newPassword: passwordField,
});
const VerifyBody = z.object({ secret: z.string({ error: 'The master key is required' }).min(1, 'The master key is required') });

export const MSG_CHECK_EMAIL = 'Please check your email to reset the password';

const rolesMap = (roles: string) => Object.fromEntries(roles.split(',').filter(Boolean).map((r) => [r, true]));

export function authRoutes(ctx: BaseContext) {
  const acc = accounts(ctx.meta, { allowSignup: ctx.config.allowSignup });
  const refresh = refreshTokens(ctx.meta);
  const audit = auditRepo(ctx.meta);
  const providers = configuredProviders(ctx.config);
  const limiter = new RateLimiter(LIMITS.authRateLimit.max, LIMITS.authRateLimit.windowMs, ctx.meta);
  const guard = new SigninGuard(ctx.secrets.jwtSecret);

  /** Issues a session JWT and a new refresh cookie for the user. */
  const session = (user: UserRow, set: { headers: Record<string, unknown> }, request: Request) => issueSession(ctx, user, set, request);

  const authType = async () => {
    const count = await acc.users.count();
    return {
      authType: authTypeOf(ctx.config),
      type: authTypeOf(ctx.config),
      firstUser: count === 0,
      /** Whether anyone may sign up without an invite (NC_ALLOW_SIGNUP); the sign-up page says so before anything is typed. */
      allowSignup: ctx.config.allowSignup,
      projectHasDb: true,
      projectHasAdmin: count > 0,
      env: 'dev',
      version: ctx.version,
      providers: [...providers.values()].map((p) => ({ id: p.id, name: p.name })),
    };
  };

  return new Elysia({ name: 'auth' })
    .get('/auth/type', authType)
    .get('/dashboard/auth/type', authType)
    .get('/ui_ability', () => ({
      maxTables: LIMITS.maxTables,
      maxTabs: ctx.config.uiMaxTabs,
      /** The largest attachment file the server takes: the web app refuses a bigger one before sending it, naming it. */
      attachmentMaxBytes: ctx.config.attachmentMaxBytes,
      darkTheme: true,
      disableGA: true,
      disableTelemetry: true,
    }))
    .post('/auth/signup', async ({ body, set, request, server }) => {
      const input = parseBody(SignupBody, body);
      const user = await acc.signup(input);
      await audit.write({ op_type: 'AUTHENTICATION', description: `signed up${user.roles.includes('super') ? ' as Super Admin' : ''}`, user_email: user.email, ip: clientIp(ctx, request, server) });
      return session(user, set, request);
    })
    .post('/auth/signin', async ({ body, set, request, server }) => {
      const input = parseBody(SigninBody, body);
      const ip = clientIp(ctx, request, server);
      await limiter.hit(`signin:ip:${ip}`);
      // Failures on this account slow unknown clients down; a known client is never locked out.
      const knownCookie = readCookie(request, KNOWN_COOKIE);
      try {
        guard.check(input.email, guard.isKnown(input.email, ip, knownCookie));
      } catch (e) {
        await audit.write({ op_type: 'AUTHENTICATION', description: 'sign-in attempt refused: too many failures for this account', user_email: input.email, ip });
        throw e;
      }
      let user: UserRow;
      try {
        user = await acc.signin(input.email, input.password);
      } catch (e) {
        if ((e as { status?: number }).status === 400) guard.failed(input.email);
        await audit.write({ op_type: 'AUTHENTICATION', description: `failed sign-in: ${(e as Error).message}`, user_email: input.email, ip });
        throw e;
      }
      await audit.write({ op_type: 'AUTHENTICATION', description: 'signed in', user_email: user.email, ip });
      const answer = await session(user, set, request);
      const known = guard.succeeded(user.email, ip, knownCookie, cameOverHttps(ctx.config, request, server), requestPathOf(ctx.config, request, '/auth'));
      set.headers['set-cookie'] = [set.headers['set-cookie'] as string, known] as unknown as string;
      return answer;
    })
    .post('/auth/refresh-token', async ({ request, set, server }) => {
      const token = readCookie(request, REFRESH_COOKIE);
      if (!token) throw unauthorized('Missing refresh token');
      try {
        const next = await refresh.rotate(token);
        const user = await acc.users.byId(next.userId);
        if (!user || user.disabled) throw unauthorized('Invalid refresh token');
        set.headers['set-cookie'] = refreshCookie(ctx.config, next.token, request);
        return { token: await signSession(ctx.secrets.jwtSecret, { id: user.id, email: user.email, v: user.token_version, sid: next.familyId }) };
      } catch (e) {
        const reusedBy = (e as { reusedBy?: string }).reusedBy;
        if (reusedBy) {
          const u = await acc.users.byId(reusedBy);
          await audit.write({ op_type: 'AUTHENTICATION', description: 'refresh token reused: sessions of that sign-in ended', user_email: u?.email, ip: clientIp(ctx, request, server) });
        }
        // Only a refused token is let go: one that could not be checked (503, the metadata store unreachable) stays
        // with the browser, which asks again once the store is back and keeps its session.
        if (isAppError(e) && e.status === 401) set.headers['set-cookie'] = refreshCookie(ctx.config, null, request);
        throw e;
      }
    })
    .post('/auth/signout', async ({ request, set, server }) => {
      const token = readCookie(request, REFRESH_COOKIE);
      // The session's own user when the call carries one, else the owner of the refresh token.
      const actor = await resolveActor(ctx, request).catch(() => undefined);
      const fromCookie = token ? await refresh.revokeToken(token) : undefined;
      // The access JWT of the call ends with its session too (sessions.ts), not only the cookie's.
      const jwt = request.headers.get('xc-auth');
      const sid = actor?.kind === 'user' && jwt ? verifiedSession(ctx.secrets.jwtSecret, jwt)?.sid : undefined;
      if (sid) await sessionsRepo(ctx.meta).revoke(sid);
      const userId = actor?.kind === 'user' && actor.userId ? actor.userId : fromCookie;
      const user = userId ? await acc.users.byId(userId) : undefined;
      if (user) await audit.write({ op_type: 'AUTHENTICATION', description: 'signed out', user_email: user.email, ip: clientIp(ctx, request, server) });
      if (user) sessionsEnded(ctx, user.id, 'signed out');
      set.headers['set-cookie'] = refreshCookie(ctx.config, null, request);
      return { msg: 'Signed out successfully' };
    })
    .get('/user/me', async ({ request, query }) => {
      const actor = await resolveActor(ctx, request);
      if (actor.kind === 'master') return { id: null, email: null, roles: { super: true, user: true }, authType: authTypeOf(ctx.config), mayCreateProjects: true };
      if (!actor.userId) return {};
      const user = (await acc.users.byId(actor.userId))!;
      const roles: Record<string, boolean> = rolesMap(user.roles);
      const projectId = typeof query.project_id === 'string' ? query.project_id : undefined;
      if (projectId) for (const r of await projectsRepo(ctx.meta).memberRoles(projectId, user.id)) roles[r] = true;
      const mayCreateProjects = !!user.may_create_projects || user.roles.split(',').includes('super');
      return { id: user.id, email: user.email, firstname: user.firstname, lastname: user.lastname, roles, createdAt: user.created_at, picture: await pictureOf(ctx.meta, user), hasPassword: !!user.password_hash, mayCreateProjects };
    })
    .post('/user/password/change', async ({ request, body, set, server }) => {
      const actor = await requireUser(ctx, request);
      if (!actor.userId) throw badRequest('Only a user account has a password');
      const input = parseBody(ChangeBody, body);
      // The current password is asked so that a session alone (a stolen token) cannot take the
      // account over: guesses at it are limited like sign-ins.
      await limiter.hit(`password-change:user:${actor.userId}`);
      const before = await acc.users.byId(actor.userId);
      const setting = !!before && !before.password_hash;
      if (!setting && !input.currentPassword) throw badRequest('Password is required');
      const user = await acc.changePassword(actor.userId, input.currentPassword ?? '', input.newPassword);
      await refresh.revokeAllForUser(user.id);
      await audit.write({ op_type: 'AUTHENTICATION', description: setting ? 'password set' : 'password changed', user_email: user.email, ip: clientIp(ctx, request, server) });
      sessionsEnded(ctx, user.id, 'the password was changed');
      return { msg: 'Password updated successfully', ...(await session(user, set, request)) };
    })
    .post('/auth/password/forgot', async ({ request, body, server }) => {
      const { email } = parseBody(ForgotBody, body);
      const ip = clientIp(ctx, request, server);
      await limiter.hit(`reset:ip:${ip}`, `reset:email:${email}`);
      const reset = await acc.createReset(email);
      if (reset) {
        const base = ctx.config.publicUrl ?? `http://localhost:${ctx.config.port}`;
        // Mailed through the mail plugin; without one the link goes to the server log for the administrator to pass on.
        const url = `${base.replace(/\/$/, '')}/#/user/password/reset?token=${reset.token}`;
        await mailOrLog(ctx, email, resetMail(ctx, url, mailLanguageOf(request.headers.get('accept-language'))), `password reset link for ${email}: ${url}`);
        await audit.write({ op_type: 'AUTHENTICATION', description: 'password reset requested', user_email: email, ip });
      } else {
        await audit.write({ op_type: 'AUTHENTICATION', description: 'password reset requested for an unknown or disabled account', user_email: email, ip });
      }
      return { msg: MSG_CHECK_EMAIL };
    })
    .get('/auth/invite/:token', async ({ params }) => ({ email: await acc.inviteEmail(params.token) }))
    .get('/auth/token/validate/:token', async ({ params }) => {
      await acc.validateReset(params.token);
      return true;
    })
    .post('/auth/password/reset/:token', async ({ params, body, request, server }) => {
      const { password } = parseBody(ResetBody, body);
      await limiter.hit(`reset:ip:${clientIp(ctx, request, server)}`);
      const user = await acc.resetPassword(params.token, password);
      await refresh.revokeAllForUser(user.id);
      await audit.write({ op_type: 'AUTHENTICATION', description: 'password reset', user_email: user.email, ip: clientIp(ctx, request, server) });
      sessionsEnded(ctx, user.id, 'the password was changed');
      return { msg: 'Password reset successful' };
    })
    .post('/auth/admin/verify', async ({ body, request }) => {
      const { secret } = parseBody(VerifyBody, body);
      if (authTypeOf(ctx.config) !== 'masterKey' || !ctx.config.adminSecret) throw badRequest('The master key is not in use on this server');
      assertMasterKey(ctx, request, secret);
      return { msg: 'Master key verified' };
    });
}
