/**
 * An OpenID Connect relying party (Google, or any provider by issuer / discovery URL): reads the
 * discovery document, sends the authorization code request with PKCE and a nonce, exchanges the
 * code, verifies the id_token signature, issuer, audience and nonce with `jose`, and reads userinfo.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { z } from 'zod';
import { badRequest } from '../../lib/errors';
import { providerFetch, type OAuthProvider, type ProviderId, type ProviderIdentity } from './provider';

const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  userinfo_endpoint: z.string().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});
type Discovery = z.infer<typeof Discovery>;

/** Discovery documents are read again after this long. */
const DISCOVERY_TTL_MS = 3600_000;
const discoveries = new Map<string, { at: number; doc: Promise<Discovery & { jwks: ReturnType<typeof createRemoteJWKSet> }> }>();

/** The discovery URL of an issuer (a full discovery URL is kept as it is). */
export const discoveryUrl = (issuer: string) =>
  issuer.includes('/.well-known/') ? issuer : `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;

function discover(name: string, issuer: string) {
  const url = discoveryUrl(issuer);
  const hit = discoveries.get(url);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.doc;
  const doc = providerFetch<unknown>(name, url).then((raw) => {
    const r = Discovery.safeParse(raw);
    if (!r.success) throw badRequest(`Sign-in with ${name} failed: its discovery document is incomplete`);
    // OpenID Connect Discovery 4.3: the document must name the issuer it was read from.
    if (!issuer.includes('/.well-known/') && r.data.issuer.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
      throw badRequest(`Sign-in with ${name} failed: its discovery document names another issuer (${r.data.issuer})`);
    }
    return { ...r.data, jwks: createRemoteJWKSet(new URL(r.data.jwks_uri)) };
  });
  doc.catch(() => discoveries.delete(url));
  discoveries.set(url, { at: Date.now(), doc });
  return doc;
}

const TokenAnswer = z.object({ access_token: z.string(), id_token: z.string() });
const UserInfo = z.looseObject({ sub: z.string(), email: z.string().optional(), email_verified: z.union([z.boolean(), z.string()]).optional(), name: z.string().optional(), picture: z.string().optional() });

const verifiedFlag = (v: unknown): boolean | null => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : null);

/** A provider that speaks OpenID Connect. */
export function oidcProvider(opts: { id: ProviderId; name: string; issuer: string; clientId: string; clientSecret: string }): OAuthProvider {
  const { name } = opts;
  return {
    id: opts.id,
    name,
    async authorizeUrl({ state, redirectUri, codeChallenge, nonce }) {
      const d = await discover(name, opts.issuer);
      const url = new URL(d.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: opts.clientId,
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      }).toString();
      return url.toString();
    },
    async identify({ code, redirectUri, codeVerifier, nonce }): Promise<ProviderIdentity> {
      const d = await discover(name, opts.issuer);
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      const methods = d.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
      if (methods.includes('client_secret_basic') || !methods.includes('client_secret_post')) {
        headers.authorization = `Basic ${btoa(`${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`)}`;
      } else {
        form.set('client_id', opts.clientId);
        form.set('client_secret', opts.clientSecret);
      }
      const raw = await providerFetch<unknown>(name, d.token_endpoint, { method: 'POST', headers, body: form });
      const tokens = TokenAnswer.safeParse(raw);
      if (!tokens.success) throw badRequest(`Sign-in with ${name} failed: no id_token in its answer`);
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(tokens.data.id_token, d.jwks, { issuer: d.issuer, audience: opts.clientId }));
      } catch (e) {
        throw badRequest(`Sign-in with ${name} failed: the id_token is not valid (${(e as Error).message})`);
      }
      if (claims.nonce !== nonce) throw badRequest(`Sign-in with ${name} failed: the id_token does not belong to this sign-in`);
      let info: z.infer<typeof UserInfo> = { sub: String(claims.sub) };
      if (d.userinfo_endpoint) {
        const r = UserInfo.safeParse(await providerFetch<unknown>(name, d.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.data.access_token}`, accept: 'application/json' } }));
        if (!r.success || r.data.sub !== claims.sub) throw badRequest(`Sign-in with ${name} failed: its user information does not match the id_token`);
        info = r.data;
      }
      const email = info.email ?? (typeof claims.email === 'string' ? claims.email : null);
      return {
        subject: String(claims.sub),
        email: email ? email.toLowerCase() : null,
        emailVerified: verifiedFlag(info.email_verified ?? claims.email_verified),
        name: info.name ?? (typeof claims.name === 'string' ? claims.name : null),
        picture: info.picture ?? null,
      };
    },
  };
}
