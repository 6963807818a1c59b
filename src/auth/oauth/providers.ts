/** The sign-in providers this server has a client for, built from the config. */
import type { Config } from '../../config/config';
import { githubProvider } from './github-client';
import { oidcProvider } from './oidc-client';
import type { OAuthProvider, ProviderId } from './provider';

/** Configured providers by id, in button order (Google, GitHub, OpenID Connect). */
export function configuredProviders(c: Config): Map<ProviderId, OAuthProvider> {
  const list = new Map<ProviderId, OAuthProvider>();
  if (c.googleClientId && c.googleClientSecret) {
    list.set('google', oidcProvider({ id: 'google', name: 'Google', issuer: c.googleIssuer, clientId: c.googleClientId, clientSecret: c.googleClientSecret }));
  }
  if (c.githubClientId && c.githubClientSecret) {
    list.set('github', githubProvider({ clientId: c.githubClientId, clientSecret: c.githubClientSecret, authorizeUrl: c.githubAuthorizeUrl, tokenUrl: c.githubTokenUrl, apiUrl: c.githubApiUrl }));
  }
  if (c.oidcIssuer && c.oidcClientId && c.oidcClientSecret) {
    list.set('oidc', oidcProvider({ id: 'oidc', name: c.oidcName, issuer: c.oidcIssuer, clientId: c.oidcClientId, clientSecret: c.oidcClientSecret }));
  }
  return list;
}

/** Where every provider sends the browser back: a server path that hands over to the web app. */
export const callbackUrl = (c: Config) => `${(c.publicUrl ?? `http://localhost:${c.port}`).replace(/\/$/, '')}/user/authentication/callback`;
