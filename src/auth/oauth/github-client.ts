/**
 * Sign in with GitHub (plain OAuth 2.0): the authorize redirect with PKCE, the code exchange at the
 * token URL, then `/user` and `/user/emails` of the API for the account id and its primary verified
 * e-mail. All three URLs come from the config (GitHub's own by default).
 */
import { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { providerFetch, type OAuthProvider, type ProviderIdentity } from './provider';

const TokenAnswer = z.object({ access_token: z.string().min(1) });
const GithubUser = z.looseObject({ id: z.union([z.number(), z.string()]), login: z.string().optional(), name: z.string().nullish(), avatar_url: z.string().nullish() });
const GithubEmails = z.array(z.looseObject({ email: z.string(), primary: z.boolean().optional(), verified: z.boolean().optional() }));

/** The GitHub provider over the configured (or GitHub's own) URLs. */
export function githubProvider(opts: { clientId: string; clientSecret: string; authorizeUrl: string; tokenUrl: string; apiUrl: string }): OAuthProvider {
  const name = 'GitHub';
  const api = opts.apiUrl.replace(/\/$/, '');
  return {
    id: 'github',
    name,
    async authorizeUrl({ state, redirectUri, codeChallenge }) {
      const url = new URL(opts.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        response_type: 'code',
      }).toString();
      return url.toString();
    },
    async identify({ code, redirectUri, codeVerifier }): Promise<ProviderIdentity> {
      const form = new URLSearchParams({ client_id: opts.clientId, client_secret: opts.clientSecret, code, redirect_uri: redirectUri, code_verifier: codeVerifier, grant_type: 'authorization_code' });
      const raw = await providerFetch<unknown>(name, opts.tokenUrl, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      const tokens = TokenAnswer.safeParse(raw);
      if (!tokens.success) throw badRequest(`Sign-in with ${name} failed: no access token in its answer`);
      const headers = { authorization: `Bearer ${tokens.data.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'Tablo' };
      const user = GithubUser.safeParse(await providerFetch<unknown>(name, `${api}/user`, { headers }));
      if (!user.success) throw badRequest(`Sign-in with ${name} failed: unexpected user information`);
      const emails = GithubEmails.safeParse(await providerFetch<unknown>(name, `${api}/user/emails`, { headers }));
      if (!emails.success) throw badRequest(`Sign-in with ${name} failed: unexpected e-mail list`);
      const pick = emails.data.find((e) => e.primary && e.verified) ?? emails.data.find((e) => e.verified);
      return {
        subject: String(user.data.id),
        email: pick ? pick.email.toLowerCase() : null,
        emailVerified: pick ? true : null,
        name: user.data.name ?? user.data.login ?? null,
        picture: user.data.avatar_url ?? null,
      };
    },
  };
}
